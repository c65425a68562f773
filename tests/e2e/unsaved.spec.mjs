// Leaving a user form with unsaved edits asks first: a link inside the console and
// the Back button with the console's own dialog (Cancel keeps the edits, Leave leaves), a
// reload with the browser's; after a save, nothing asks.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture } from "./harness.mjs";

describe("unsaved changes", () => {
  const env = consoleFixture();
  const main = () => env.page.locator("main#main");
  const leaveDialog = () => env.page.getByRole("dialog", { name: "Leave with unsaved changes?" });
  const navLink = (name) => env.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

  test("a link asks: Cancel keeps the edits, Leave leaves", async () => {
    const { page, sandbox } = env;
    await page.goto(`${sandbox.url}/users/new`);
    await main().getByLabel("First name").fill("Half");
    await navLink("Teams").click();
    await leaveDialog().waitFor(VISIBLE);
    await leaveDialog().getByRole("button", { name: "Cancel" }).click();
    await leaveDialog().waitFor({ state: "hidden" });
    assert.match(page.url(), /\/users\/new$/);
    assert.equal(await main().getByLabel("First name").inputValue(), "Half", "the edits are kept");

    await navLink("Teams").click();
    await leaveDialog().getByRole("button", { name: "Leave" }).click();
    await page.waitForURL(/\/teams$/);
    await main().getByRole("heading", { level: 1, name: "Teams" }).waitFor(VISIBLE);
  });

  test("Back asks too, and a reload gets the browser's question", async () => {
    const { page, sandbox } = env;
    await page.goto(`${sandbox.url}/users`);
    await main().getByRole("link", { name: "Ada Admin", exact: true }).click();
    await main().getByRole("heading", { level: 1, name: "Ada Admin" }).waitFor(VISIBLE);
    const userUrl = page.url();
    await main().getByLabel("First name").fill("Adaline");

    await page.goBack();
    await leaveDialog().waitFor(VISIBLE);
    assert.equal(page.url(), userUrl, "the address stays the user's");
    await leaveDialog().getByRole("button", { name: "Cancel" }).click();
    assert.equal(await main().getByLabel("First name").inputValue(), "Adaline");

    const before = page.beforeUnloads;
    await page.reload();
    assert.equal(page.beforeUnloads, before + 1, "the browser asked before reloading");
    await main().getByRole("heading", { level: 1, name: "Ada Admin" }).waitFor(VISIBLE);

    await main().getByLabel("First name").fill("Adaline");
    await page.goBack();
    await leaveDialog().getByRole("button", { name: "Leave" }).click();
    await page.waitForURL(/\/users$/);
  });

  test("after a save nothing asks", async () => {
    const { page, sandbox } = env;
    await page.goto(`${sandbox.url}/users`);
    await main().getByRole("link", { name: "Ada Admin", exact: true }).click();
    await main().getByRole("heading", { level: 1, name: "Ada Admin" }).waitFor(VISIBLE);
    await main().getByLabel("Last name").fill("Admin");
    await main().getByLabel("First name").fill("Ada");
    await main().getByLabel("Last name").fill("Administrator");
    await main().getByRole("button", { name: "Save changes" }).click();
    await page.getByTestId("user-outcome").waitFor(VISIBLE);
    await navLink("Teams").click();
    await page.waitForURL(/\/teams$/);
    assert.equal(await leaveDialog().isVisible(), false);
    assert.deepEqual(page.dialogs, []);
  });
});

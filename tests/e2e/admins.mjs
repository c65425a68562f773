// What the guard specs share: the platform's users and admins read and written straight
// through the API (as another admin would), and a row of the users list.

import assert from "node:assert/strict";
import { platformGet, scimUsers } from "./harness.mjs";

export const SCIM = "/api/scim/v2/Users";
export const ME = "admin@example.com";

/** Every SCIM user, read with the fixture's token. */
export const allUsers = (env) => scimUsers(env.sandbox.url, env.token);

export const activeAdmins = (users) => users.filter((u) => u.active && u.userType === "admin");

// The seed also holds users with hostile names, which the user form refuses as too long: a test
// that saves a user through the form takes one whose names are plain.
const PLAIN = /^[A-Za-z' -]{1,40}$/;

/** The active users of `role` whose given and family names are plain. */
export const plainUsers = (users, role) =>
  users.filter((u) => u.active && u.userType === role && PLAIN.test(u.name.givenName) && PLAIN.test(u.name.familyName));

/** Every team group (the demo world has fewer than 100), read with the fixture's token. */
export async function allGroups(env) {
  return (await platformGet(env.sandbox.url, env.token, "/api/v3/groups?page=1&per_page=100")).body.groups;
}

/** Writes `body` to user `id` straight through the API, as another admin would (with `token`). */
export async function put(env, id, body, token = env.token) {
  const response = await fetch(`${env.sandbox.url}${SCIM}/${id}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/scim+json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `PUT ${id}`);
}

/** The users list's row of `email` on `page`. */
export const usersRow = (page, email) =>
  page.locator("table.users-table tbody tr", { has: page.locator("td", { hasText: new RegExp(`^${email.replace(/[.+]/g, "\\$&")}$`) }) });

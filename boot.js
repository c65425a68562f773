// Starts the console from an external module so the Content-Security-Policy
// needs no 'unsafe-inline' (Trunk's default loader is an inline script).
// Trunk writes the hashed file names into this script's own tag: see
// `pattern_script` in Trunk.toml.
const tag = document.querySelector("script[data-gifting-boot]");

function showStartupFailure() {
  // A failed start must never leave a blank page.
  const main = document.createElement("main");
  const message = document.createElement("p");
  message.setAttribute("role", "alert");
  message.textContent =
    "The Gifting Console could not start. Reload the page; if this keeps happening, " +
    "the browser console has the details.";
  main.append(message);
  document.body.append(main);
}

try {
  if (!tag || !tag.dataset.js || !tag.dataset.wasm) {
    throw new Error("boot.js: the loader tag lacks data-js / data-wasm");
  }
  const { default: init } = await import(tag.dataset.js);
  await init({ module_or_path: tag.dataset.wasm });
} catch (error) {
  console.error("Gifting Console failed to start:", error);
  showStartupFailure();
}

#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    gifting_console::panic::install();
    // The first screen is drawn in the admin's language (boot.js has fetched its messages).
    gifting_console::i18n::start();
    leptos::mount::mount_to_body(gifting_console::app::Root);
}

fn main() {
    gifting_console::panic::install();
    leptos::mount::mount_to_body(gifting_console::app::Root);
}

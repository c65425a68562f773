//! Saving text built in the browser as a file: a Blob, an object URL, a click on a temporary
//! `<a download>`. No server round trip, and nothing is written into the page.

use std::time::Duration;

use wasm_bindgen::JsCast;

use crate::browser::sleep;
use crate::i18n::{t, M};

/// Offers the strings (or Blobs) of `parts`, one after another, for download: a file built in pieces
/// (each handed to the browser as it was made) never exists whole in the wasm memory.
pub(crate) fn download_parts(
    file_name: &str,
    mime: &str,
    parts: &js_sys::Array,
) -> Result<(), String> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(parts, &options)
        .map_err(|_| t(M::DownloadCannotBuild))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| t(M::DownloadCannotPrepare))?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| t(M::DownloadCannotPrepare))?
        .unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(file_name);
    anchor.set_hidden(true);
    let body = document.body().ok_or("no document body")?;
    let _ = body.append_child(&anchor);
    anchor.click();
    anchor.remove();
    // The download has started by now; free the Blob a little later, not while it is read.
    leptos::task::spawn_local(async move {
        sleep(Duration::from_secs(10)).await;
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    Ok(())
}

/// Today's date in the viewer's time zone as `YYYY-MM-DD`, for file names.
pub(crate) fn local_date() -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}",
        now.get_full_year(),
        now.get_month() + 1,
        now.get_date()
    )
}

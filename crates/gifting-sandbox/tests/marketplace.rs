//! The marketplace catalog, its cursor and filters, and the image CDN.

mod common;

use std::time::{Duration, Instant};

use common::{assert_rest_error, start, Answer, Server};
use gifting_api::marketplace::{ProductsPage, ProductsQuery, PAGE_SIZE};
use reqwest::StatusCode;

const PRODUCTS: &str = "/api/v3/marketplace/products";

async fn page(s: &common::Sandbox, t: &str, q: &ProductsQuery) -> ProductsPage {
    s.get_ok(&format!("{PRODUCTS}{}", q.to_query_string()), t)
        .await
}

#[tokio::test]
async fn walks_the_whole_catalog_with_the_cursor() {
    let s = start().await;
    let t = s.admin().await;
    let mut q = ProductsQuery::default();
    let mut ids = Vec::new();
    let mut pages = 0;
    loop {
        let p = page(&s, &t, &q).await;
        pages += 1;
        assert!(!p.categories.is_empty(), "categories in every response");
        assert!(p.products.len() <= PAGE_SIZE);
        ids.extend(p.products.iter().map(|x| x.id.clone()));
        match (p.pagination.after, p.pagination.next_page) {
            (Some(after), Some(next)) => {
                assert_eq!(p.products.len(), PAGE_SIZE);
                assert!(
                    next.url.starts_with(&format!("{}{PRODUCTS}?", s.url)),
                    "{}",
                    next.url
                );
                assert!(next.url.contains(&format!("after={after}")));
                q.after = Some(after);
            }
            (None, None) => break,
            other => panic!("after and next_page disagree: {other:?}"),
        }
        assert!(pages < 100);
    }
    assert_eq!(ids.len(), 300);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 300);
    assert_eq!(pages, 300usize.div_ceil(PAGE_SIZE));
}

#[tokio::test]
async fn product_shape_and_hostile_names() {
    let s = start().await;
    let t = s.admin().await;
    let raw: serde_json::Value = s.get(PRODUCTS, &t).await.json().await.unwrap();
    let p: ProductsPage = serde_json::from_value(raw.clone()).unwrap();
    for product in &p.products {
        assert!((1..=4).contains(&product.variants.len()));
        for v in &product.variants {
            assert!(
                gifting_api::money::Decimal::parse(&v.estimated_total_price.price_per_unit)
                    .is_some()
            );
            assert!(!v.images.is_empty());
            for img in &v.images {
                for url in [&img.url, &img.cdn_main.url, &img.cdn_thumbnail.url] {
                    assert!(url.starts_with(&format!("{}/cdn/", s.url)), "{url}");
                }
            }
        }
    }
    assert!(raw["pagination"]["after"].is_string());
    let names: Vec<&str> = p.products.iter().map(|x| x.name.as_str()).collect();
    assert!(names.contains(&"<img src=x onerror=alert(1)>"));
    assert!(names.contains(&"<script>alert(1)</script>"));
}

#[tokio::test]
async fn filters() {
    let s = start().await;
    let t = s.admin().await;
    let all = |q: ProductsQuery| {
        let (s, t) = (&s, &t);
        async move {
            let mut q = q;
            let mut out = Vec::new();
            loop {
                let p = page(s, t, &q).await;
                out.extend(p.products);
                match p.pagination.after {
                    Some(a) => q.after = Some(a),
                    None => break out,
                }
            }
        }
    };
    let coffee = all(ProductsQuery {
        text_search: Some("COFFEE".into()),
        ..Default::default()
    })
    .await;
    assert!(!coffee.is_empty());
    assert!(coffee.iter().all(|p| {
        p.name.to_lowercase().contains("coffee") || p.description.to_lowercase().contains("coffee")
    }));
    let cheap = all(ProductsQuery {
        price_lte_usd: Some(30),
        ..Default::default()
    })
    .await;
    assert!(!cheap.is_empty() && cheap.len() < 300);
    let band = all(ProductsQuery {
        price_gte_usd: Some(50),
        price_lte_usd: Some(100),
        ..Default::default()
    })
    .await;
    assert!(!band.is_empty() && band.len() < 300);
    let coffee_cat = all(ProductsQuery {
        category_ids: vec!["101".into()],
        ..Default::default()
    })
    .await;
    assert!(!coffee_cat.is_empty() && coffee_cat.len() < 100);
    let india = all(ProductsQuery {
        ship_to_country_codes: vec!["IN".into()],
        ..Default::default()
    })
    .await;
    let us = all(ProductsQuery {
        ship_to_country_codes: vec!["US".into()],
        ..Default::default()
    })
    .await;
    assert!(!india.is_empty() && india.len() < us.len());
    let combined = all(ProductsQuery {
        ship_to_country_codes: vec!["IN".into(), "US".into()],
        category_ids: vec!["101".into()],
        price_lte_usd: Some(100),
        ..Default::default()
    })
    .await;
    assert!(combined.len() <= coffee_cat.len());
    let nothing = all(ProductsQuery {
        text_search: Some("zzz-no-such-product".into()),
        ..Default::default()
    })
    .await;
    assert!(nothing.is_empty());
    // Filters are carried into next_page.url.
    let p = page(
        &s,
        &t,
        &ProductsQuery {
            ship_to_country_codes: vec!["US".into()],
            ..Default::default()
        },
    )
    .await;
    let next = p
        .pagination
        .next_page
        .expect("more than a page ships to the US")
        .url;
    assert!(next.contains("ship_to_country_codes%5B%5D=US"), "{next}");
}

#[tokio::test]
async fn bad_input_and_scope() {
    let s = start().await;
    let t = s.admin().await;
    for q in ["after=garbage", "price_gte_usd=cheap", "price_lte_usd=-5"] {
        let res = s.get(&format!("{PRODUCTS}?{q}"), &t).await;
        assert_rest_error(res, StatusCode::BAD_REQUEST).await;
    }
    let scim_only = s.sign_in("admin@example.com", "scim").await;
    let res = s.get(PRODUCTS, &scim_only.access_token).await;
    assert_eq!(
        res.headers()["www-authenticate"],
        "Bearer error=\"insufficient_scope\", scope=\"marketplace\""
    );
    assert_rest_error(res, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn cdn_images_cache_and_thumbnails_are_smaller() {
    let s = start().await;
    let t = s.admin().await;
    let p: ProductsPage = s.get_ok(PRODUCTS, &t).await;
    let img = p.products[0].variants[0].images[0].clone();
    let main = s.http.get(&img.cdn_main.url).answer().await;
    assert_eq!(main.status(), StatusCode::OK);
    assert_eq!(main.headers()["content-type"], "image/svg+xml");
    let cache = main.headers()["cache-control"].to_str().unwrap().to_owned();
    assert!(cache.contains("max-age=31536000"), "{cache}");
    let etag = main.headers()["etag"].to_str().unwrap().to_owned();
    let main_bytes = main.bytes().await.unwrap();
    let thumb = s
        .http
        .get(&img.cdn_thumbnail.url)
        .answer()
        .await
        .bytes()
        .await
        .unwrap();
    assert!(
        thumb.len() < main_bytes.len(),
        "{} < {}",
        thumb.len(),
        main_bytes.len()
    );
    assert!(thumb.starts_with(b"<svg"));
    let original = s.http.get(&img.url).answer().await;
    assert_eq!(original.status(), StatusCode::OK);
    let cached = s
        .http
        .get(&img.cdn_main.url)
        .header("if-none-match", &etag)
        .answer()
        .await;
    assert_eq!(cached.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(cached.headers()["etag"], etag.as_str());
    assert!(cached.bytes().await.unwrap().is_empty());
    let stale = s
        .http
        .get(&img.cdn_main.url)
        .header("if-none-match", "\"other\"")
        .answer()
        .await;
    assert_eq!(stale.status(), StatusCode::OK);
    for bad in [
        "/cdn/products/prd_99999/v/1/main.svg",
        "/cdn/products/prd_10001/nope/1/main.svg",
        "/cdn/products/prd_10001/var_0001_1/9/main.svg",
        "/cdn/products/prd_10001/var_0001_1/1/huge.svg",
        "/cdn/",
    ] {
        let res = s.get_req(bad).answer().await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{bad}");
    }
}

#[tokio::test]
async fn image_urls_follow_the_request_host() {
    let s = start().await;
    let t = s.admin().await;
    let port = s.running.addr.port();
    let localhost = format!("localhost:{port}");
    let res = s
        .get_req(PRODUCTS)
        .bearer_auth(&t)
        .header("host", &localhost)
        .answer()
        .await;
    let p: ProductsPage = res.json().await.unwrap();
    let url = &p.products[0].variants[0].images[0].cdn_main.url;
    assert!(
        url.starts_with(&format!("http://{localhost}/cdn/")),
        "{url}"
    );
    assert!(p
        .pagination
        .next_page
        .unwrap()
        .url
        .starts_with(&format!("http://{localhost}/")));
}

#[tokio::test]
async fn a_65_kb_url_of_country_codes_is_refused_quickly() {
    let s = start().await;
    let t = s.admin().await;
    // The key without `[]` (which the catalog reads too): 2,600 codes in 65,000 bytes.
    let codes: String = (0..2600)
        .map(|i| format!("ship_to_country_codes={}&", ["US", "CA", "GB"][i % 3]))
        .collect();
    assert_eq!(codes.len(), 65_000);
    let started = Instant::now();
    let res = s.get(&format!("{PRODUCTS}?{codes}"), &t).await;
    let took = started.elapsed();
    let message = assert_rest_error(res, StatusCode::BAD_REQUEST).await;
    assert!(
        message.contains("at most 300"),
        "{}",
        &message[..message.len().min(200)]
    );
    assert!(took < Duration::from_millis(250), "{took:?}");
    let long_search = format!("{PRODUCTS}?text_search={}", "a".repeat(65_000));
    let res = s.get(&long_search, &t).await;
    assert_rest_error(res, StatusCode::BAD_REQUEST).await;
    // Every ISO code at once is a request a client may send: answered as before.
    let every = ProductsQuery {
        ship_to_country_codes: gifting_api::countries::COUNTRIES
            .iter()
            .map(|(code, _)| (*code).to_owned())
            .collect(),
        ..ProductsQuery::default()
    };
    let one = ProductsQuery {
        ship_to_country_codes: vec!["US".into()],
        ..ProductsQuery::default()
    };
    assert_eq!(page(&s, &t, &every).await.products.len(), PAGE_SIZE);
    assert_eq!(page(&s, &t, &one).await.products.len(), PAGE_SIZE);
}

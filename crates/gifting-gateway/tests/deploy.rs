//! The Kubernetes manifests (`deploy/kubernetes/base`) and the `Containerfile` against the
//! gateway they deploy: every environment variable is one of the gateway's flags and the
//! ConfigMap's values are accepted by it, the probes ask routes the gateway answers on the
//! port it listens on, the metrics port is the one scraped, the secret file is where the
//! mount puts it, and the pod keeps the restricted Pod Security Standard. Then every overlay
//! as kubectl renders it (`scripts/render-overlays.sh`, with the kubectl of `make ops-tools`):
//! its selectors select the gateway's pods, its NetworkPolicy lets them reach kube-dns and the
//! platform's range on 443 and nothing else and admits the console's port from the ingress
//! controller alone, and the gateway accepts its ConfigMap.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use clap::CommandFactory as _;
use gifting_gateway::{app, Config, Flags, Gateway, Log};
use serde_yaml::Value;
use tower::ServiceExt as _;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifest(name: &str) -> Value {
    let path = repo().join("deploy/kubernetes/base").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// `value` at a path of keys and indexes, e.g. `"spec.template.spec.containers.0"`.
fn at<'v>(value: &'v Value, path: &str) -> &'v Value {
    path.split('.').fold(value, |v, key| {
        let next = match key.parse::<usize>() {
            Ok(i) => v.get(i),
            Err(_) => v.get(key),
        };
        next.unwrap_or_else(|| panic!("no {key} in {path}"))
    })
}

fn text<'v>(value: &'v Value, path: &str) -> &'v str {
    at(value, path)
        .as_str()
        .unwrap_or_else(|| panic!("{path} is not text"))
}

/// Each flag's environment variable and its long name (`--static` for `GATEWAY_STATIC`).
fn flag_envs() -> BTreeMap<String, (String, bool)> {
    Flags::command()
        .get_arguments()
        .filter_map(|arg| {
            let env = arg.get_env()?.to_str()?.to_owned();
            let takes_value = arg.get_action().takes_values();
            Some((env, (format!("--{}", arg.get_long()?), takes_value)))
        })
        .collect()
}

fn config_map() -> BTreeMap<String, String> {
    serde_yaml::from_value(at(&manifest("configmap.yaml"), "data").clone()).expect("data")
}

fn port_of(addr: &str) -> u64 {
    addr.rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("HOST:PORT")
}

fn container() -> Value {
    at(
        &manifest("deployment.yaml"),
        "spec.template.spec.containers.0",
    )
    .clone()
}

fn container_port(name: &str) -> u64 {
    let ports = at(&container(), "ports")
        .as_sequence()
        .expect("ports")
        .clone();
    ports
        .iter()
        .find(|p| text(p, "name") == name)
        .and_then(|p| at(p, "containerPort").as_u64())
        .unwrap_or_else(|| panic!("no container port {name}"))
}

/// A built-console directory and a secret file for parsing the manifests' flags here.
fn scratch() -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("gifting-deploy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("index.html"), "<!doctype html>").expect("index");
    let secret = dir.join("client-secret");
    std::fs::write(&secret, "from-the-secret\n").expect("secret");
    (dir, secret)
}

/// The base ConfigMap as the gateway's command line (`config_from`).
fn config_from_map() -> Config {
    config_from(config_map())
}

/// A ConfigMap's data as the gateway's command line, with the paths that exist only in the
/// container pointed at `scratch()`.
fn config_from(map: BTreeMap<String, String>) -> Config {
    let envs = flag_envs();
    let (dist, secret) = scratch();
    let mut args = vec!["gifting-gateway".to_owned()];
    for (name, value) in map {
        if name == "RUST_LOG" {
            continue;
        }
        let (long, takes_value) = envs
            .get(&name)
            .unwrap_or_else(|| panic!("{name} is no flag of the gateway"));
        let value = match name.as_str() {
            "GATEWAY_STATIC" => dist.to_string_lossy().into_owned(),
            "GATEWAY_CLIENT_SECRET_FILE" => secret.to_string_lossy().into_owned(),
            _ => value,
        };
        args.push(long.clone());
        if *takes_value {
            args.push(value);
        } else {
            assert_eq!(value, "true", "{name} is a switch: \"true\" or absent");
        }
    }
    Config::from_args(args, None).expect("the ConfigMap's flags are accepted")
}

#[test]
fn the_config_map_names_only_flags_and_the_gateway_accepts_them() {
    let map = config_map();
    assert!(
        !map.contains_key(gifting_gateway::config::SECRET_ENV),
        "the secret belongs in a Secret"
    );
    let c = config_from_map();
    assert_eq!(c.client_secret.expose(), "from-the-secret");
    assert!(c.tls);
    assert_eq!(
        c.client_ip_header.as_ref().map(|h| h.as_str()),
        Some("x-forwarded-for")
    );
    let metrics = c.metrics_addr.expect("metrics on in the cluster");
    assert_ne!(metrics.port(), c.addr.port());
}

#[test]
fn ports_and_the_scrape_annotation_match_the_listeners() {
    let map = config_map();
    let deployment = manifest("deployment.yaml");
    assert_eq!(container_port("http"), port_of(&map["GATEWAY_ADDR"]));
    let metrics = port_of(&map["GATEWAY_METRICS_ADDR"]);
    assert_eq!(container_port("metrics"), metrics);
    let annotations = at(&deployment, "spec.template.metadata.annotations");
    let annotation = |key: &str| annotations.get(key).and_then(Value::as_str);
    assert_eq!(annotation("prometheus.io/scrape"), Some("true"));
    assert_eq!(
        annotation("prometheus.io/port"),
        Some(&*metrics.to_string())
    );
    assert_eq!(annotation("prometheus.io/path"), Some("/metrics"));
    let service = manifest("service.yaml");
    assert_eq!(text(&service, "spec.ports.0.targetPort"), "http");
    let policy = manifest("networkpolicy.yaml");
    assert_eq!(text(&policy, "spec.ingress.0.ports.0.port"), "http");
    assert_eq!(text(&policy, "spec.ingress.1.ports.0.port"), "metrics");
}

#[tokio::test]
async fn the_probes_ask_routes_the_gateway_answers() {
    let c = container();
    let probes = [
        ("startupProbe", "/healthz"),
        ("livenessProbe", "/healthz"),
        ("readinessProbe", "/readyz"),
    ];
    let mut config = config_from_map();
    // Nothing listens here: /readyz must answer (503), not be missing.
    config.platform_url = "http://127.0.0.1:9".into();
    let gw = Gateway::new(config, Log::memory().0).expect("gateway");
    for (probe, path) in probes {
        assert_eq!(text(&c, &format!("{probe}.httpGet.path")), path, "{probe}");
        assert_eq!(
            text(&c, &format!("{probe}.httpGet.port")),
            "http",
            "{probe}"
        );
        let res = app(gw.clone())
            .oneshot(Request::get(path).body(Body::empty()).expect("request"))
            .await
            .expect("answer");
        assert!(
            res.status() == StatusCode::OK || res.status() == StatusCode::SERVICE_UNAVAILABLE,
            "{path}: {}",
            res.status()
        );
    }
}

#[test]
fn the_secret_is_mounted_where_the_flag_reads_it() {
    let wanted = PathBuf::from(&config_map()["GATEWAY_CLIENT_SECRET_FILE"]);
    let deployment = manifest("deployment.yaml");
    let c = container();
    let mount = at(&c, "volumeMounts.0");
    assert_eq!(at(mount, "readOnly").as_bool(), Some(true));
    let volume = at(&deployment, "spec.template.spec.volumes.0");
    assert_eq!(text(mount, "name"), text(volume, "name"));
    let file = text(volume, "secret.items.0.path");
    assert_eq!(Path::new(text(mount, "mountPath")).join(file), wanted);
}

#[test]
fn the_pod_meets_the_restricted_standard_and_outlasts_a_drain() {
    let deployment = manifest("deployment.yaml");
    let pod = at(&deployment, "spec.template.spec");
    let c = container();
    for (value, path) in [(pod, "securityContext"), (&c, "securityContext")] {
        let sc = at(value, path);
        assert_eq!(at(sc, "runAsNonRoot").as_bool(), Some(true));
        assert_eq!(text(sc, "seccompProfile.type"), "RuntimeDefault");
    }
    let sc = at(&c, "securityContext");
    assert_eq!(at(sc, "allowPrivilegeEscalation").as_bool(), Some(false));
    assert_eq!(at(sc, "readOnlyRootFilesystem").as_bool(), Some(true));
    assert_eq!(text(sc, "capabilities.drop.0"), "ALL");
    assert!(at(pod, "securityContext.runAsUser").as_u64() > Some(0));
    let map = config_map();
    let timeout: u64 = map["GATEWAY_TIMEOUT_SECS"].parse().expect("seconds");
    let pause = at(&c, "lifecycle.preStop.sleep.seconds")
        .as_u64()
        .expect("s");
    let grace = at(pod, "terminationGracePeriodSeconds")
        .as_u64()
        .expect("s");
    assert!(grace >= pause + timeout + 5, "grace {grace} s");
    assert_eq!(at(&deployment, "spec.replicas").as_u64(), Some(3));
}

#[test]
fn the_image_sets_only_flags_and_runs_as_no_one() {
    let path = repo().join("Containerfile");
    let file = std::fs::read_to_string(&path).expect("Containerfile");
    let envs = flag_envs();
    let mut set = Vec::new();
    let mut continued = false;
    for line in file.lines().map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        let body = line.strip_prefix("ENV ").or(continued.then_some(line));
        continued = body.is_some() && line.ends_with('\\');
        for part in body.unwrap_or("").trim_end_matches('\\').split_whitespace() {
            if let Some((name, _)) = part.split_once('=') {
                set.push(name.to_owned());
            }
        }
    }
    assert!(set.len() >= 3, "{set:?}");
    for name in &set {
        assert!(envs.contains_key(name), "ENV {name} is no flag");
    }
    // Every variable the gateway reads is documented in the Containerfile.
    for env in envs.keys() {
        assert!(file.contains(env.as_str()), "{env} not documented");
    }
    assert!(file.contains("\nUSER 65532:65532\n"));
    assert!(file.contains("\nSTOPSIGNAL SIGTERM\n"));
    assert!(file.contains("\nFROM scratch\n"));
}

/// The venv's kubectl that `make ops-tools` installs (`$KUBECTL` if set).
fn kubectl() -> PathBuf {
    if let Some(path) = std::env::var_os("KUBECTL") {
        return path.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or(repo().join("target"), |dir| {
        repo().join(PathBuf::from(dir)) // an absolute directory replaces repo()
    });
    target.join("ops-venv/bin/kubectl")
}

/// Every overlay as `kubectl apply -k` applies it (scripts/render-overlays.sh), by name: its
/// objects, rendered once per test run.
fn overlays() -> &'static BTreeMap<String, Vec<Value>> {
    static RENDERED: std::sync::OnceLock<BTreeMap<String, Vec<Value>>> = std::sync::OnceLock::new();
    RENDERED.get_or_init(|| {
        let out = std::env::temp_dir().join(format!("gifting-overlays-{}", std::process::id()));
        let kubectl = kubectl();
        assert!(
            kubectl.exists(),
            "{kubectl:?} is missing: `make ops-tools` installs it (or set KUBECTL)"
        );
        let status = std::process::Command::new(repo().join("scripts/render-overlays.sh"))
            .arg(&out)
            .env("KUBECTL", &kubectl)
            .status()
            .expect("scripts/render-overlays.sh runs");
        assert!(status.success(), "render-overlays.sh: {status}");
        let mut rendered = BTreeMap::new();
        for entry in std::fs::read_dir(&out).expect("rendered overlays") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("rendered overlay");
            let objects = serde_yaml::Deserializer::from_str(&text)
                .map(|doc| serde::Deserialize::deserialize(doc).expect("an object"))
                .collect();
            let name = path
                .file_stem()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            rendered.insert(name, objects);
        }
        std::fs::remove_dir_all(&out).expect("remove the rendered overlays");
        assert!(
            !rendered.is_empty(),
            "no overlay under deploy/kubernetes/overlays"
        );
        rendered
    })
}

/// The one object of `kind` in an overlay.
fn object<'v>(objects: &'v [Value], kind: &str) -> &'v Value {
    let mut found = objects.iter().filter(|o| text(o, "kind") == kind);
    let one = found.next().unwrap_or_else(|| panic!("no {kind}"));
    assert!(found.next().is_none(), "more than one {kind}");
    one
}

fn labels(value: &Value, path: &str) -> BTreeMap<String, String> {
    serde_yaml::from_value(at(value, path).clone()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn yaml(text: &str) -> Value {
    serde_yaml::from_str(text).expect("YAML")
}

#[test]
fn every_overlay_lets_the_gateway_reach_dns_and_the_platform_and_nothing_else() {
    for (overlay, objects) in overlays() {
        let policy = object(objects, "NetworkPolicy");
        let types = at(policy, "spec.policyTypes");
        assert!(types
            .as_sequence()
            .expect("types")
            .contains(&"Egress".into()));
        // The base's 0.0.0.0/0 (private ranges excepted) must be narrowed to the platform's.
        let platform = at(policy, "spec.egress.1.to.0.ipBlock");
        let cidr = text(platform, "cidr");
        assert!(!cidr.ends_with("/0"), "{overlay}: 443 open to {cidr}");
        let dns =
            "{to: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: kube-system}}, \
                   podSelector: {matchLabels: {k8s-app: kube-dns}}}], \
                   ports: [{port: 53, protocol: UDP}, {port: 53, protocol: TCP}]}";
        let https = format!(
            "{{to: [{{ipBlock: {{cidr: {cidr}}}}}], ports: [{{port: 443, protocol: TCP}}]}}"
        );
        let expected = yaml(&format!("[{dns}, {https}]"));
        assert_eq!(at(policy, "spec.egress"), &expected, "{overlay}: egress");
    }
}

#[test]
fn every_overlays_selectors_match_the_gateways_pods() {
    for (overlay, objects) in overlays() {
        let deployment = object(objects, "Deployment");
        let pod = labels(deployment, "spec.template.metadata.labels");
        let selectors = [
            ("Deployment", "spec.selector.matchLabels"),
            (
                "Deployment",
                "spec.template.spec.topologySpreadConstraints.0.labelSelector.matchLabels",
            ),
            ("Service", "spec.selector"),
            ("PodDisruptionBudget", "spec.selector.matchLabels"),
            ("NetworkPolicy", "spec.podSelector.matchLabels"),
        ];
        for (kind, path) in selectors {
            let selector = labels(object(objects, kind), path);
            assert!(!selector.is_empty(), "{overlay}: {kind} {path} selects all");
            assert!(
                selector.iter().all(|(k, v)| pod.get(k) == Some(v)),
                "{overlay}: {kind} {path} {selector:?} misses the pods {pod:?}"
            );
        }
        let hpa = object(objects, "HorizontalPodAutoscaler");
        let name = text(deployment, "metadata.name");
        assert_eq!(text(hpa, "spec.scaleTargetRef.name"), name, "{overlay}");
    }
}

#[test]
fn every_overlay_admits_the_console_port_from_the_ingress_controller_alone() {
    for (overlay, objects) in overlays() {
        let policy = object(objects, "NetworkPolicy");
        let rules = at(policy, "spec.ingress").as_sequence().expect("rules");
        for rule in rules {
            let peers = rule.get("from").and_then(Value::as_sequence);
            let peers =
                peers.unwrap_or_else(|| panic!("{overlay}: a rule for every pod: {rule:?}"));
            assert!(!peers.is_empty(), "{overlay}: a rule for every pod");
            for peer in peers {
                let namespaces = labels(peer, "namespaceSelector.matchLabels");
                assert!(!namespaces.is_empty(), "{overlay}: from every namespace");
            }
        }
        let console = &rules[0];
        assert_eq!(text(console, "ports.0.port"), "http", "{overlay}");
        let controller = labels(console, "from.0.podSelector.matchLabels");
        assert!(
            !controller.is_empty(),
            "{overlay}: any pod of the namespace"
        );
        // The same pods by address: the header is believed from them alone.
        let map: BTreeMap<String, String> =
            serde_yaml::from_value(at(object(objects, "ConfigMap"), "data").clone()).expect("data");
        if map.contains_key("GATEWAY_CLIENT_IP_HEADER") {
            let proxies = map.get("GATEWAY_TRUSTED_PROXIES");
            let base = config_map().get("GATEWAY_TRUSTED_PROXIES").cloned();
            assert!(proxies.is_some(), "{overlay}: trusts no proxy");
            assert_ne!(proxies, base.as_ref(), "{overlay}: base's placeholder");
        }
    }
}

#[test]
fn every_overlays_config_map_is_accepted_by_the_gateway() {
    for objects in overlays().values() {
        let data = at(object(objects, "ConfigMap"), "data").clone();
        let c = config_from(serde_yaml::from_value(data).expect("data"));
        assert!(c.metrics_addr.is_some());
    }
}

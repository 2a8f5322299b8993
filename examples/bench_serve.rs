//! A small load client for `hanzo-env serve` (driven by `scripts/bench-serve.sh`).
//!
//! `cargo run --release --example bench_serve -- URL TOKEN [CLIENTS] [SECONDS] [WRITERS]`
//!
//! CLIENTS concurrent connections loop for SECONDS, each as fast as its answers come: WRITERS
//! of them set secrets (PUT), the others read environments (GET). Prints throughput and
//! p50/p99 latency per kind, and the number of failed requests (anything but 200).

use std::time::{Duration, Instant};

const REPOS: usize = 20;

#[derive(Default)]
struct Tally {
    gets: Vec<Duration>,
    puts: Vec<Duration>,
    errors: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: bench_serve URL TOKEN [CLIENTS] [SECONDS] [WRITERS]");
        std::process::exit(2);
    }
    let url = args[0].trim_end_matches('/').to_string();
    let token = args[1].clone();
    let clients: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let seconds: f64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let writers: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime");
    let tally = runtime.block_on(load(url, token, clients, Duration::from_secs_f64(seconds), writers));
    report(&tally, seconds, clients, writers);
    if tally.errors > 0 {
        std::process::exit(1);
    }
}

async fn load(url: String, token: String, clients: usize, length: Duration, writers: usize) -> Tally {
    let http = reqwest::Client::builder().pool_max_idle_per_host(clients).build().expect("http client");
    // Something to read: every repo saved, with a couple of secrets.
    for repo in 0..REPOS {
        let saved = http
            .put(format!("{url}/v1/environment/repo{repo}"))
            .bearer_auth(&token)
            .json(&serde_json::json!({"install": "make deps", "start": "redis-server"}))
            .send()
            .await;
        assert!(saved.is_ok_and(|r| r.status() == 200), "could not seed repo{repo}");
    }
    let deadline = Instant::now() + length;
    let tasks: Vec<_> = (0..clients)
        .map(|client| {
            let (http, url, token) = (http.clone(), url.clone(), token.clone());
            tokio::spawn(async move {
                let mut tally = Tally::default();
                let mut n: u64 = 0;
                while Instant::now() < deadline {
                    n += 1;
                    let repo = (client + n as usize) % REPOS;
                    let is_put = client < writers;
                    let request = if is_put {
                        http.put(format!("{url}/v1/environment/repo{repo}/secrets/BENCH_{client}_{}", n % 16))
                            .json(&serde_json::json!({"value": format!("bench-value-{n}")}))
                    } else {
                        http.get(format!("{url}/v1/environment/repo{repo}"))
                    };
                    let started = Instant::now();
                    let ok = match request.bearer_auth(&token).send().await {
                        Ok(response) => response.status() == 200 && response.bytes().await.is_ok(),
                        Err(_) => false,
                    };
                    let took = started.elapsed();
                    match (ok, is_put) {
                        (false, _) => tally.errors += 1,
                        (true, true) => tally.puts.push(took),
                        (true, false) => tally.gets.push(took),
                    }
                }
                tally
            })
        })
        .collect();
    let mut total = Tally::default();
    for task in tasks {
        let tally = task.await.expect("load task");
        total.gets.extend(tally.gets);
        total.puts.extend(tally.puts);
        total.errors += tally.errors;
    }
    total
}

fn report(tally: &Tally, seconds: f64, clients: usize, writers: usize) {
    let writers = writers.min(clients);
    println!("{clients} clients ({} reading, {writers} setting secrets), {seconds:.0} s", clients - writers);
    for (kind, samples) in [("GET", &tally.gets), ("PUT secret", &tally.puts)] {
        if samples.is_empty() {
            continue;
        }
        let mut sorted = samples.clone();
        sorted.sort();
        let at = |q: f64| sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)];
        println!(
            "  {kind:<10} {:>8} ok  {:>9.0}/s  p50 {:>7.2} ms  p99 {:>7.2} ms",
            sorted.len(),
            sorted.len() as f64 / seconds,
            at(0.50).as_secs_f64() * 1000.0,
            at(0.99).as_secs_f64() * 1000.0
        );
    }
    println!("  errors     {:>8}", tally.errors);
}

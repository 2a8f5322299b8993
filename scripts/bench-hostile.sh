#!/usr/bin/env bash
# Issue 12's attacks (rows 1-14) and issue 27's (rows R2.1-R2.16), measured: peak RSS and wall time of each reproducer, and what came of
# it (refused, killed at the address-space cap, hung and killed by the timeout, leaked).
# Every run is under `ulimit -v` (4 GiB) and `timeout 60`, with a clean environment and a
# temporary HOME and TMPDIR, so a binary without the fixes is measured safely.
# Usage: scripts/bench-hostile.sh BIN [BIN...]   e.g. target/release/hanzo-env /tmp/hanzo-env-base
# BENCH_ROUND=1 or 2 runs only issue 12's or issue 27's attacks.
# Output: one tab-separated line per attack and binary: item, attack, binary, outcome, RSS, time.
# Public tools only: bash, /usr/bin/time, timeout, python3 (fake servers), curl.
set -uo pipefail
[ $# -ge 1 ] || { echo "usage: $0 BIN [BIN...]" >&2; exit 2; }
CAP_KIB=4194304
LIMIT_S=60
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; chmod -R u+rwX "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# A fake API or proxy on loopback (python3): MODE is huge, chunks, chunks403, inject, echo or
# proxy; prints nothing, writes its URL to $tmp/url.MODE, records what it was sent in $tmp/seen.MODE.
fake() {
  local mode="$1"
  python3 - "$mode" "$tmp" <<'PY' &
import socket, sys, threading, json
mode, tmp = sys.argv[1], sys.argv[2]
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0)); srv.listen(64)
open(f"{tmp}/url.{mode}", "w").write("http://127.0.0.1:%d" % srv.getsockname()[1])
ESC = "\u001b"
def send_json(c, status, body):
    b = body.encode()
    c.sendall(b"HTTP/1.1 %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % (status.encode(), len(b)) + b)
def handle(c):
    try:
        data = b""
        while b"\r\n\r\n" not in data:
            d = c.recv(65536)
            if not d: break
            data += d
        with open(f"{tmp}/seen.{mode}", "ab") as f: f.write(data)
        if mode == "proxy":
            c.sendall(b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n"); return
        if mode == "huge":
            c.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2147483648\r\n\r\n")
            while True: c.sendall(b" " * 65536)
        if mode in ("chunks", "chunks403"):
            status = b"200 OK" if mode == "chunks" else b"403 Forbidden"
            c.sendall(b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n")
            chunk = b"10000\r\n" + b" " * 65536 + b"\r\n"
            while True: c.sendall(chunk)
        if mode == "inject":
            env = {"repo": ESC + "]0;pwned\u0007site" + ESC + "[2J", "install": "", "start": "", "secrets": [],
                   "state": "ready", "session": "", "proposal": None}
            send_json(c, "200 OK", json.dumps({"data": [env]})); return
        if mode == "echohead":
            detail = "rejected: " + data.decode(errors="replace").replace("\r\n", " | ")
            send_json(c, "400 Bad Request", json.dumps({"type": "about:blank", "title": "Bad Request", "status": 400, "detail": detail})); return
        if mode == "badname":
            env = {"repo": "site", "install": "make", "start": "", "secrets": ["B\nC"], "state": "ready", "session": "", "proposal": None}
            send_json(c, "200 OK", json.dumps(env)); return
        if mode == "echo":
            head, _, body = data.partition(b"\r\n\r\n")
            length = int([l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0])
            while len(body) < length: body += c.recv(65536)
            detail = "you sent: " + body.decode()
            send_json(c, "400 Bad Request", json.dumps({"type": "about:blank", "title": "Bad Request", "status": 400, "detail": detail}))
    except OSError:
        pass
    finally:
        c.close()
while True:
    conn, _ = srv.accept()
    threading.Thread(target=handle, args=(conn,), daemon=True).start()
PY
  pids+=($!)
  for _ in $(seq 100); do [ -s "$tmp/url.$mode" ] && break; sleep 0.05; done
  cat "$tmp/url.$mode"
}

# measure DIR STDIN ENV... -- ARGS: run $bin in DIR under the cap and the timeout; sets rc,
# rss (KiB), secs, and leaves $tmp/out and $tmp/err.
measure() {
  local dir="$1" stdin="$2"; shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  (cd "$dir" && env -i PATH="$PATH" HOME="$home" TMPDIR="$tmp/t" "${envs[@]}" \
    /usr/bin/time -f '%M %e' -o "$tmp/time" timeout -k 5 "$LIMIT_S" \
    sh -c "ulimit -v $CAP_KIB && exec \"\$0\" \"\$@\"" "$bin" "$@" < "$stdin" > "$tmp/out" 2> "$tmp/err")
  rc=$?
  read -r rss secs < <(grep -E '^[0-9]+ [0-9.]+$' "$tmp/time")
}

# The outcome of the last run: how it ended, then $1 (what to say when it ended normally).
ended() {
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then echo "not done at ${LIMIT_S} s, killed"
  elif grep -q "has overflowed its stack" "$tmp/err"; then echo "aborted (exit $rc): stack overflow"
  elif [ "$rc" = 134 ] || grep -q "memory allocation of" "$tmp/err"; then echo "killed at cap (alloc failed)"
  else echo "exit $rc; $1"; fi
}

row() { printf '%s\t%s\t%s\t%s\t%s MiB\t%s s\n' "$1" "$2" "$label" "$3" "$((rss / 1024))" "$secs"; }

fresh() { rm -rf "$tmp/c" "$tmp/t" "$tmp/h"; mkdir -p "$tmp/c" "$tmp/t" "$tmp/h"; home="$tmp/h"; c="$tmp/c"; }

alias_bomb() {
  echo 'a0: &a0 [x,x,x,x,x,x,x,x,x]'
  for i in 1 2 3 4 5 6 7; do p=$((i - 1)); echo "a$i: &a$i [*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p,*a$p]"; done
  printf 'services:\n  db:\n    image: postgres\n'
}

# A serve for the runs that need a real API: sets serve_url, serve_token.
source "$(dirname "$0")/serve-lib.sh"

attacks() {
  local null=/dev/null
  fresh; echo '{}' > "$c/package.json"; alias_bomb > "$c/docker-compose.yml"
  measure "$c" $null -- detect --json .
  row 1 "386-byte alias bomb in docker-compose.yml (detect)" "$(ended "$(grep -o 'docker-compose.yml: not read[^"]*' "$tmp/out" | head -1)")"

  fresh; echo '{}' > "$c/package.json"; mkdir "$c/sub"; ln -s /dev/zero "$c/sub/.gitignore"
  measure "$c" $null -- detect --json .
  row 2 "sub/.gitignore -> /dev/zero (detect)" "$(ended "$(grep -c 'ignore file not read' "$tmp/out") warning")"
  fresh; echo '{}' > "$c/package.json"; mkfifo "$c/.gitignore"
  measure "$c" $null -- detect --json .
  row 2 ".gitignore a FIFO (detect)" "$(ended "$(grep -c 'ignore file not read' "$tmp/out") warning")"

  fresh; mkdir -p "$c/.git" "$c/.hanzo"; ln -s /dev/zero "$c/.hanzo/environment.toml"
  measure "$c" $null -- run -- true
  row 3 ".hanzo/environment.toml -> /dev/zero (run)" "$(ended "$(grep -o 'refusing to read[^:]*' "$tmp/err" | head -1)")"
  fresh; mkdir -p "$c/.git" "$c/.hanzo"; mkfifo "$c/.hanzo/environment.toml"
  measure "$c" $null -- run -- true
  row 3 ".hanzo/environment.toml a FIFO (run)" "$(ended "$(grep -o 'refusing to read[^:]*' "$tmp/err" | head -1)")"

  local api
  for mode in huge chunks chunks403; do
    api=$(cat "$tmp/url.$mode")
    fresh
    case $mode in
      huge) measure "$c" $null HANZO_BASE_URL="$api" HANZO_API_KEY=t -- show site ;;
      *) measure "$c" $null HANZO_BASE_URL="$api" HANZO_API_KEY=t -- list ;;
    esac
    local what="Content-Length: 2147483648 (show)"
    [ $mode = chunks ] && what="endless chunked 200 (list)"
    [ $mode = chunks403 ] && what="endless chunked 403 (list)"
    row 4 "$what" "$(ended "$(tail -c 300 "$tmp/err" | grep -o 'announces[^,]*\|over the [0-9]* byte limit\|(403)[^.]*' | head -1)")"
  done

  fresh; echo '{}' > "$c/package.json"; mkdir "$c/src"
  python3 - "$c/src" <<'PY'
import sys
n = 0
for f in range(200):
    parts = []
    size = 0
    while size < 280 << 10:
        s = "process.env.K%d_TOKEN;" % n; parts.append(s); size += len(s); n += 1
    open("%s/gen%03d.js" % (sys.argv[1], f), "w").write("".join(parts))
PY
  measure "$c" $null -- detect --json .
  row 5 "200 files of unique process.env.K<n>_TOKEN (detect)" "$(ended "$(wc -c < "$tmp/out") bytes of JSON")"

  for t in "head -c 1000000000 /dev/zero | tr '\\0' x; false" "yes 'a short line' | head -c 1000000000; false"; do
    fresh; mkdir -p "$c/.git" "$c/.hanzo"; echo 'install = "true"' > "$c/.hanzo/environment.toml"
    measure "$c" $null -- verify --test "$t"
    local kept; kept=$(du -sk "$tmp/t" | cut -f1)
    local shown; shown=$(wc -c < "$tmp/err")
    case $t in head*) what="verify, a test printing one 1 GB line" ;; *) what="verify, a test printing 1 GB of short lines" ;; esac
    row 5 "$what" "$(ended "$((kept / 1024)) MiB of logs kept, $shown bytes shown")"
  done

  # 6: 1,100 idle, half-sent and stalled connections under ulimit -n 1024, then one GET.
  fresh
  crowd_token="bench-$RANDOM"; printf '%s\n' "$crowd_token" > "$tmp/token"
  (ulimit -n 1024; ulimit -v $CAP_KIB; exec env -i PATH="$PATH" HOME="$home" "$bin" serve --listen 127.0.0.1:0 \
    --data "$tmp/t/data" --token-file "$tmp/token" > "$tmp/t/out" 2> "$tmp/t/err") &
  local spid=$!; pids+=($spid)
  local surl=
  for _ in $(seq 100); do surl=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$tmp/t/out" | head -1) && [ -n "$surl" ] && break; sleep 0.1; done
  python3 - "${surl#http://}" > "$tmp/crowd" <<'PY' &
import socket, sys, time, resource
resource.setrlimit(resource.RLIMIT_NOFILE, (4096, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
host, port = sys.argv[1].split(":")
conns = []
for i in range(1100):
    try:
        s = socket.create_connection((host, int(port)), timeout=2)
        if i % 3 == 1: s.sendall(b"GET /v1/environment HTTP/1.1\r\nHost: x\r\n")
        if i % 3 == 2: s.sendall(b"PUT /v1/environment/site HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{")
        conns.append(s)
    except OSError:
        pass
print(len(conns), flush=True)
time.sleep(35)  # past serve's header (10 s) and body (30 s) timeouts
open_ = 0
for s in conns:
    s.setblocking(False)
    try:
        open_ += s.recv(1) == b"" and 0 or 0  # an answer (408) or EOF: closed by the server
    except BlockingIOError:
        open_ += 1
    except OSError:
        pass
print(open_, flush=True)
time.sleep(60)
PY
  local crowd=$!; pids+=($crowd)
  for _ in $(seq 100); do [ -s "$tmp/crowd" ] && break; sleep 0.1; done
  sleep 1
  local started=$EPOCHREALTIME code
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H "Authorization: Bearer $crowd_token" "$surl/v1/environment")
  secs=$(python3 -c "print(round($EPOCHREALTIME - $started, 2))")
  rss=$(awk '/VmHWM/ {print $2}' "/proc/$(pgrep -P $spid || echo $spid)/status" 2>/dev/null || echo 0)
  [ -n "$rss" ] || rss=0
  for _ in $(seq 450); do [ "$(wc -l < "$tmp/crowd")" -ge 2 ] && break; sleep 0.1; done
  row 6 "$(head -1 "$tmp/crowd") idle/half-sent/stalled connections, a GET among them (serve, ulimit -n 1024)" \
    "GET answered ${code/000/nothing in 10 s}; $(sed -n 2p "$tmp/crowd") still open after 35 s"
  kill $crowd $spid 2>/dev/null; wait $crowd $spid 2>/dev/null

  fresh; mkdir -p "$c/.git" "$c/.hanzo"; local mark="$RANDOM$RANDOM"
  printf 'install = "true"\n[env]\nTOKEN = "${LEAK_TOKEN}"\n' > "$c/.hanzo/environment.toml"
  measure "$c" $null LEAK_TOKEN=tok_$mark -- verify --test "setsid sleep 1$mark & true"
  sleep 0.5
  local leftover; leftover=$(pgrep -f "sleep 1$mark")
  local left; left=$(echo -n "$leftover" | grep -c .)
  [ -n "$leftover" ] && kill $leftover 2>/dev/null  # by pid: the daemons this run's test started
  row 7 "a test leaving \`setsid sleep &\` running (verify)" "$(ended "$left process(es) left running")"

  fresh; local proxy; proxy=$(cat "$tmp/url.proxy"); : > "$tmp/seen.proxy"
  echo -n "proxy-leak-value" > "$tmp/value"
  measure "$c" "$tmp/value" HANZO_BASE_URL="$serve_url" HANZO_API_KEY="$serve_token" HTTP_PROXY="$proxy" -- --repo site secret set API_KEY
  row 8 "HTTP_PROXY set, API on loopback (secret set)" \
    "$(ended "the proxy got $(wc -c < "$tmp/seen.proxy") bytes, token in them: $(grep -c "$serve_token" "$tmp/seen.proxy")")"

  fresh; mkdir -p "$c/.git" "$c/.hanzo"
  printf 'install = "true"\n[env]\nTOKEN = "${LOG_TOKEN}"\n' > "$c/.hanzo/environment.toml"
  measure "$c" $null LOG_TOKEN=tok_LOG_MARKER -- verify --keep --test 'echo "token $TOKEN"; false'
  local log; log=$(find "$tmp/t" -name 'test.log' | head -1)
  row 9 "verify --keep, a test echoing an [env] value" \
    "$(ended "log mode $(stat -c %a "$log" 2>/dev/null), dir $(stat -c %a "$(dirname "$log")" 2>/dev/null), value in log: $(grep -c tok_LOG_MARKER "$log" 2>/dev/null)")"

  fresh
  measure "$c" $null HANZO_BASE_URL="$(cat "$tmp/url.inject")" HANZO_API_KEY=t -- list
  row 10 "a repo name with ESC]0;…BEL and ESC[2J (list)" "$(ended "$(tr -cd '\033\007' < "$tmp/out" | wc -c) raw control bytes on stdout")"

  fresh; echo -n "s3cr3t-echo-value-0123456789" > "$tmp/value"
  measure "$c" "$tmp/value" HANZO_BASE_URL="$(cat "$tmp/url.echo")" HANZO_API_KEY=t -- --repo site secret set API_KEY
  row 11 "a 400 whose detail quotes the body (secret set)" "$(ended "value printed: $(grep -c s3cr3t-echo-value "$tmp/err") time(s)")"

  fresh; python3 -c "import sys; sys.stdout.write('v' * 65536 + '\n')" > "$tmp/value"
  measure "$c" "$tmp/value" HANZO_BASE_URL="$serve_url" HANZO_API_KEY="$serve_token" -- --repo site secret set API_KEY
  row 12 "64 KiB value + trailing newline on stdin (secret set)" "$(ended "$(grep -o 'over 64 KiB\|Set API_KEY ([0-9]* bytes)' "$tmp/err" | head -1)")"

  fresh; echo '{}' > "$c/package.json"; mkdir -p "$c/.git" "$tmp/t/elsewhere"; ln -s "$tmp/t/elsewhere" "$c/.hanzo"
  measure "$c" $null -- detect
  row 13 ".hanzo a link out of the checkout (detect)" "$(ended "$(find "$tmp/t/elsewhere" -type f | wc -l) file(s) written outside")"

  fresh; mkfifo "$c/package.json"; echo 'pytest' > "$c/requirements.txt"
  measure "$c" $null -- detect --json .
  row 14 "package.json a FIFO (detect)" "$(ended "$(grep -c 'package.json: skipped' "$tmp/out") warning naming it")"
}

# Issue 27's attacks.
compose_of() { python3 -c "
import sys
n = int(sys.argv[1]); out = ['services:']
for i in range(n):
    out.append('  s%05d:\n    image: postgres:16\n    ports: [\"%d:5432\"]\n    environment:\n      POSTGRES_PASSWORD: pw%d' % (i, 5432 + i % 1000, i))
print('\n'.join(out))" "$1"; }
workflow_of() { python3 -c "
import sys
n = int(sys.argv[1]); out = ['on: push', 'jobs:']
for i in range(n):
    out.append('  j%05d:\n    runs-on: ubuntu-latest\n    services:\n      pg:\n        image: postgres:16\n        ports: [\'5432:5432\']\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test -- --shard=%d' % (i, i))
print('\n'.join(out))" "$1"; }

attacks2() {
  local null=/dev/null
  fresh; mkdir -p "$tmp/t/outside" "$c/.git"; echo '{}' > "$c/package.json"
  printf 'services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: outside-pw-marker\n' > "$tmp/t/outside/compose.yml"
  echo 'OUTSIDE_ONLY_KEY=' > "$tmp/t/outside/env"
  ln -s "$tmp/t/outside/compose.yml" "$c/compose.yaml"; ln -s "$tmp/t/outside/env" "$c/.env.example"
  measure "$c" $null -- detect --stdout
  row R2.1 "compose.yaml and .env.example linked out of the checkout (detect)" \
    "$(ended "outside values in the draft: $(grep -c 'outside-pw-marker\|OUTSIDE_ONLY_KEY' "$tmp/out")")"

  fresh; echo '{}' > "$c/package.json"; mkdir -p "$c/.hanzo"
  printf 'services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: "$${{ secrets.DEPLOY_KEY }}"\n' > "$c/compose.yaml"
  printf 'install = "echo ${{ github.event.pull_request.title }}"\nstart = ""\n' > "$c/.hanzo/environment.toml"
  measure "$c" $null -- export --to copilot --stdout
  row R2.2 "\${{ … }} in a compose value and an install line (export --to copilot)" \
    "$(ended "expressions Actions would evaluate: $(sed "s/\${{ '\${{' }}//g" "$tmp/out" | grep -o '\${{' | wc -l)")"

  fresh; echo '{}' > "$c/package.json"; mkdir -p "$c/.github/workflows"
  printf 'on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    services:\n      postgres:\n        image: postgres:16\n        env:\n          POSTGRES_PASSWORD: "pa$word${AWS_SECRET_ACCESS_KEY}"\n        ports: ["5432:5432"]\n    steps:\n      - run: npm test\n' > "$c/.github/workflows/ci.yml"
  measure "$c" $null -- export --to devcontainer --stdout
  row R2.3 "a CI service value with \$ (export --to devcontainer)" \
    "$(ended "the value as compose reads it: $(grep -o 'POSTGRES_PASSWORD: .*' "$tmp/out" | head -1 | sed 's/\$\$/@/g; s/\$[{A-Za-z_]*[A-Za-z_}]*//g; s/@/$/g')")"

  fresh; python3 -c "print('<project>' + '<a>' * 50000 + '</a>' * 50000 + '</project>')" > "$c/pom.xml"
  measure "$c" $null -- detect --json .
  row R2.4 "pom.xml of 50,000 nested elements (detect)" "$(ended "$(grep -o 'pom.xml: [^"]*' "$tmp/out" | head -1)")"

  fresh; echo '{}' > "$c/package.json"; compose_of 19000 > "$c/compose.yaml"
  measure "$c" $null -- detect --json .
  row R2.5 "compose.yaml of 19,000 services, 2.0 MB (detect)" "$(ended "$(grep -o 'compose.yaml: [^"]*' "$tmp/out" | head -1)")"
  local i
  for i in 0 1 2 3 4 5 6 7 8 9; do mkdir -p "$c/svc$i"; cp "$c/compose.yaml" "$c/svc$i/"; done; rm "$c/compose.yaml"
  measure "$c" $null -- detect --json .
  row R2.5 "ten of them, 20 MB (detect)" "$(ended "$(grep -c 'compose.yaml: ' "$tmp/out") warning(s)")"
  fresh; echo '{}' > "$c/package.json"; for i in 0 1 2 3 4 5 6 7 8 9; do mkdir -p "$c/svc$i"; compose_of 3000 > "$c/svc$i/compose.yaml"; done
  measure "$c" $null -- detect --json .
  row R2.5 "ten compose files of 3,000 services, 3.2 MB (detect)" "$(ended "start of $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['start']))" "$tmp/out" 2>/dev/null) bytes")"
  fresh; echo '{}' > "$c/package.json"; mkdir -p "$c/.github/workflows"; workflow_of 8000 > "$c/.github/workflows/ci.yml"
  measure "$c" $null -- detect --json .
  row R2.5 "a workflow of 8,000 jobs, 1.7 MB (detect)" "$(ended "$(grep -o 'ci.yml: [^"]*' "$tmp/out" | head -1)")"

  if unshare -rm true 2>/dev/null; then
    fresh; mkdir -p "$tmp/t/mnt"; printf 'disk-full-token-0123456789\n' > "$tmp/t/token"
    W="$tmp/t" BIN="$bin" unshare -rm sh -c '
      mount -t tmpfs -o size=16m none "$W/mnt" || exit 97
      "$BIN" serve --listen 127.0.0.1:0 --data "$W/mnt/data" --token-file "$W/token" > "$W/out1" 2> "$W/err1" &
      first=$!
      while [ ! -e "$W/go" ]; do sleep 0.05; done
      dd if=/dev/zero of="$W/mnt/filler" bs=64k 2>/dev/null; touch "$W/full"
      ( sleep 20; kill $first 2>/dev/null ) & wait $first; echo $? > "$W/rc1"' &
    local ns=$!; pids+=($ns)
    for _ in $(seq 100); do grep -q http "$tmp/t/out1" 2>/dev/null && break; sleep 0.1; done
    local url; url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$tmp/t/out1")
    touch "$tmp/t/go"; for _ in $(seq 100); do [ -e "$tmp/t/full" ] && break; sleep 0.1; done
    python3 -c "import sys; sys.stdout.write(''.join(chr(97 + (i * 13) % 26) for i in range(60000)))" > "$tmp/value"
    local n ok=0 codes=""
    for n in $(seq 40); do
      if env -i PATH="$PATH" HOME="$home" HANZO_BASE_URL="$url" HANZO_API_KEY=disk-full-token-0123456789 "$bin" --repo site secret set "K$n" < "$tmp/value" > /dev/null 2>&1; then ok=$((ok + 1)); else break; fi
    done
    sleep 1
    for n in 1 2 3; do codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -X PUT -H 'Authorization: Bearer disk-full-token-0123456789' -H 'content-type: application/json' -d '{"value":"v"}' "$url/v1/environment/site/secrets/AFTER$n")"; done
    local health; health=$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer disk-full-token-0123456789' "$url/v1/environment/site")
    wait $ns 2>/dev/null
    rss=0; secs=0
    row R2.6 "serve on a full 16 MiB tmpfs: writes until one fails, then three more" \
      "$ok acknowledged; later writes:${codes//000/ refused}; GET: ${health/000/refused}; server exit $(cat "$tmp/t/rc1" 2>/dev/null)"
  else
    rss=0; secs=0; row R2.6 "serve on a full tmpfs" "not measured: no user namespaces here"
  fi

  fresh; mkdir -p "$c/.git" "$c/src/a$(printf '\033')]0;pwned$(printf '\007')b"; echo '{}' > "$c/package.json"
  echo 'process.env.STRIPE_SECRET_KEY;' > "$c/src/a$(printf '\033')]0;pwned$(printf '\007')b/pay.js"
  measure "$c" $null -- detect
  local after; after=$(cd "$c" && env -i PATH="$PATH" HOME="$home" "$bin" run -- true > /dev/null 2>&1; echo $?)
  row R2.7 "a folder named a ESC]0;pwned BEL b (detect, then run)" \
    "$(ended "raw control bytes in the draft: $(tr -cd '\033\007' < "$c/.hanzo/environment.toml" | wc -c); run then exits $after")"

  fresh
  measure "$c" $null HANZO_API_KEY=t -- --ca-cert /dev/zero list
  row R2.9 "--ca-cert /dev/zero (list)" "$(ended "$(grep -o 'not a regular file[^)]*' "$tmp/err" | head -1)")"
  fresh
  measure "$c" $null -- serve --listen 127.0.0.1:0 --data "$tmp/t/d" --token-file /dev/zero
  row R2.9 "serve --token-file /dev/zero" "$(ended "$(grep -o 'not a regular file[^)]*' "$tmp/err" | head -1)")"

  fresh
  measure "$c" $null HANZO_BASE_URL="$(cat "$tmp/url.echohead")" HANZO_API_KEY=tok_bench_HEADER_MARKER_0123 -- list
  row R2.10 "a 400 quoting the request's headers (list)" "$(ended "token printed: $(grep -c tok_bench_HEADER_MARKER "$tmp/err") time(s)")"

  fresh; printf 'abc\000def' > "$tmp/value"
  measure "$c" "$tmp/value" HANZO_BASE_URL="$serve_url" HANZO_API_KEY="$serve_token" -- --repo site secret set NUL_VALUE
  row R2.11 "a value holding NUL (secret set)" "$(ended "$(grep -o 'holds a NUL byte\|Set NUL_VALUE' "$tmp/err" | head -1)")"

  fresh
  measure "$c" $null HANZO_ENV_SERVE_TOKENS=a -- serve --allow-remote --listen 0.0.0.0:0 --data "$tmp/t/d"
  row R2.12 "HANZO_ENV_SERVE_TOKENS=a with --allow-remote (serve)" "$(ended "$(cat "$tmp/err" "$tmp/out" | grep -o 'shorter than 16 characters, refused[^"]*\|listening on[^ ]*' | head -1)")"

  fresh; mkdir -p "$c/.git" "$c/.hanzo"; printf 'repo = "site"\ninstall = "npm ci"\n' > "$c/.hanzo/environment.toml"
  measure "$c" $null HANZO_BASE_URL="$(cat "$tmp/url.badname")" HANZO_API_KEY=t -- pull --yes
  after=$(cd "$c" && env -i PATH="$PATH" HOME="$home" "$bin" run -- true > /dev/null 2>&1; echo $?)
  row R2.13 "a server sending the secret name \"B\\nC\" (pull)" "$(ended "file changed: $(grep -c make "$c/.hanzo/environment.toml"); run then exits $after")"

  fresh; mkdir -p "$c/.git" "$c/.hanzo"
  printf 'install = """\necho a\n<!-- hanzo-env:setup:start -->\n<!-- hanzo-env:setup:end -->\n"""\n' > "$c/.hanzo/environment.toml"
  (cd "$c" && env -i PATH="$PATH" HOME="$home" "$bin" export --to agents-md > /dev/null 2>&1)
  measure "$c" $null -- export --to agents-md
  row R2.14 "marker lines in the install (export --to agents-md, twice)" "$(ended "$(grep -o 'start markers[^;]*' "$tmp/err" | head -1 | sed 's/$/; /')$(grep -c 'Wrote\|up to date' "$tmp/err") success line(s)")"

  fresh; mkdir -p "$c/.git" "$c/.hanzo"
  printf 'install = "true"\n[env]\nTOKEN = "${LOG_TOKEN}"\n' > "$c/.hanzo/environment.toml"
  measure "$c" $null LOG_TOKEN='tok"LOG"MARKER' -- verify --keep --test 'python3 -c "import json,os; print(json.dumps(os.environ[\"TOKEN\"]))"; false'
  log=$(find "$tmp/t" -name 'test.log' | head -1)
  row R2.15 "verify, a test printing a value JSON-escaped" "$(ended "escaped value in log: $(grep -c 'tok\\"LOG' "$log" 2>/dev/null), on stderr: $(grep -c 'tok\\"LOG' "$tmp/err")")"

  fresh; git init -q "$c"; printf '#!/bin/sh\ntouch "%s/fsmonitor-ran"\n' "$tmp/t" > "$c/.git/probe"; chmod +x "$c/.git/probe"
  git -C "$c" config core.fsmonitor "$c/.git/probe"; echo run.env > "$c/.gitignore"; mkdir -p "$c/.hanzo"; echo 'install = "true"' > "$c/.hanzo/environment.toml"
  git -C "$c" -c core.fsmonitor=false add .gitignore
  measure "$c" $null -- env-file --out run.env
  row R2.16 "core.fsmonitor in the checkout's .git/config (env-file)" "$(ended "the fsmonitor command ran: $([ -e "$tmp/t/fsmonitor-ran" ] && echo yes || echo no)")"
}

mkdir -p "$tmp/t"
for mode in huge chunks chunks403 inject echo proxy echohead badname; do fake "$mode" > /dev/null; done
mkdir -p "$tmp/serve"
start_serve "$1" "$tmp/serve" || exit 1
pids+=("$serve_pid")
printf 'item\tattack\tbinary\toutcome\tpeak RSS\ttime\n'
for bin in "$@"; do
  label=$(basename "$bin")
  [ "${BENCH_ROUND:-all}" = 2 ] || attacks
  [ "${BENCH_ROUND:-all}" = 1 ] || attacks2
done

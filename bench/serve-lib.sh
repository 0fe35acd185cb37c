# The pieces of bench/serve and bench/serve-10m, sourced by both (not run on its own): a store of
# EVENTS events, `serve` on it, SAS tokens, a wrk load with serve's CPU time meanwhile, and a table of
# the figures. The caller sets `root` (the repository), `build` (the tools) and `python` (with the
# Azure SDKs), and `set -euo pipefail`. Several serves may run at once, each under a name.

declare -A serve_pid serve_timer serve_table serve_blob serve_dir serve_file serve_results

serve_needs() { # the tools every load needs
  local tool
  for tool in wrk curl /usr/bin/time "$python" "$build/serve" "$build/seed" "$build/export"; do
    command -v "$tool" >/dev/null || { echo "$(basename "$0"): needs $tool (see $(basename "$0") --help)" >&2; exit 1; }
  done
}

serve_bytes_free() { df --output=avail -B1 "$1" | tail -n 1 | tr -d ' '; }

# serve_store EVENTS: makes, once, the store of EVENTS events in partition Events and 1,000 speakers
# with photos in bench/out/serve-EVENTS; then the keys for the point reads (at most a million, drawn
# evenly from all, so that wrk's Lua holds the same number at any size) and the photos' URLs.
serve_store() {
  local events=$1 out="$root/bench/out/serve-$1"
  mkdir -p "$out"
  if [ ! -s "$out/speakers.csv" ]; then
    echo "making the store of $events events in $out…" >&2
    rm -f "$out"/store.sqlite* "$out"/*.csv
    "$build/seed" --store "$out/store.sqlite" --events "$events" --speakers 1000 --seed 1 --from 2026-01-01 --quiet --samples "$root/samples"
    "$build/export" --store "$out/store.sqlite" --partition Events --columns RowKey --to "$out/all-keys.csv" --quiet
    awk -v every=$(((events + 999999) / 1000000)) 'NR == 1 || (NR - 2) % every == 0' "$out/all-keys.csv" >"$out/keys.csv"
    rm -f "$out/all-keys.csv"
    "$build/export" --store "$out/store.sqlite" --partition speakers --columns ImageUrl --to "$out/speakers.csv" --quiet
  fi
}

# serve_start NAME EVENTS COPY: serves bench/out/serve-EVENTS on free ports, under GNU time for its peak
# RSS. COPY yes serves a copy (run.sqlite), so that the inserts never reach the store; no serves the
# store itself, and the table the inserts go to is deleted at the end (serve_stop); auto copies when the
# disk keeps 10 GB free beside the copy. The store is read through once first, so that every size
# starts with it in the page cache.
serve_start() {
  local name=$1 events=$2 copy=$3 out="$root/bench/out/serve-$2" size file
  size=$(stat -c %s "$out/store.sqlite")
  if [ "$copy" = auto ]; then
    copy=no
    [ "$(serve_bytes_free "$out")" -gt $((size + (10 << 30))) ] && copy=yes
  fi
  rm -f "$out"/run.sqlite*
  file="$out/store.sqlite"
  if [ "$copy" = yes ]; then
    cp "$out/store.sqlite" "$out/run.sqlite"
    sync # the copy's writeback would otherwise compete with the first load
    file="$out/run.sqlite"
  fi
  cat "$file" >/dev/null
  serve_dir[$name]=$out
  serve_file[$name]=$file
  serve_results[$name]="$out/results.txt"
  : >"${serve_results[$name]}"
  # serve prints "table http://…" and "blob http://…".
  /usr/bin/time -f %M -o "$out/serve.maxrss" "$build/serve" --store "$file" --table-port 0 --blob-port 0 --ui-port 0 --quiet \
    >"$out/serve.out" 2>"$out/serve.err" &
  serve_timer[$name]=$!
  local _
  for _ in $(seq 300); do
    [ "$(wc -l <"$out/serve.out")" -ge 2 ] && break
    kill -0 "${serve_timer[$name]}" 2>/dev/null || { cat "$out/serve.err" >&2; exit 1; }
    sleep 0.1
  done
  serve_pid[$name]=$(pgrep -P "${serve_timer[$name]}")
  serve_table[$name]=$(sed -n 's,^table \(http://[^/]*\)/.*,\1,p' "$out/serve.out")
  serve_blob[$name]=$(sed -n 's,^blob \(http://[^/]*\)/.*,\1,p' "$out/serve.out")
  echo "serve $name (pid ${serve_pid[$name]}, $(basename "$file"), $((size >> 20)) MB): $(tr '\n' ' ' <"$out/serve.out")"
}

# Every serve still running is stopped when the script ends, however it ends.
serve_stop_all() {
  local name
  for name in "${!serve_pid[@]}"; do
    kill -TERM "${serve_pid[$name]}" 2>/dev/null || true
    wait "${serve_timer[$name]}" 2>/dev/null || true
  done
}
trap serve_stop_all EXIT

# serve_sign: an account SAS for the tables (create, insert, query, read, delete) in $tsas and a
# container SAS for the photos in $bsas, signed by the Python SDK.
serve_sign() {
  { read -r tsas; read -r bsas; } < <("$python" - <<'PY'
from datetime import datetime, timedelta, timezone
from azure.core.credentials import AzureNamedKeyCredential
from azure.data.tables import AccountSasPermissions, ResourceTypes, generate_account_sas
from azure.storage.blob import ContainerSasPermissions, generate_container_sas
name, key = "devstoreaccount1", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
expiry = datetime.now(timezone.utc) + timedelta(hours=6)
print(generate_account_sas(AzureNamedKeyCredential(name, key), resource_types=ResourceTypes(container=True, object=True),
                           permission=AccountSasPermissions(read=True, add=True, create=True, list=True, delete=True), expiry=expiry))
print(generate_container_sas(name, "speakers", account_key=key, permission=ContainerSasPermissions(read=True), expiry=expiry))
PY
  ) || true
  [ -n "${bsas:-}" ] || { echo "$(basename "$0"): $python could not sign the SAS tokens" >&2; exit 1; }
  echo "TABLE_SAS='$tsas'"
  echo "BLOB_SAS='$bsas'"
}

# serve_wanted LOAD: whether ONLY (names, comma-separated; a part of a name will do) takes this load.
serve_wanted() {
  local only
  IFS=, read -ra only <<<"${ONLY:-}"
  [ ${#only[@]} -eq 0 ] && return 0
  for part in "${only[@]}"; do [[ $1 == *"$part"* ]] && return 0; done
  return 1
}

serve_cpu() { awk '{print $14 + $15}' "/proc/${serve_pid[$1]}/stat"; } # user + system time, all threads, in ticks

# serve_run NAME LOAD COMMAND…: runs a wrk command against serve NAME; its RESULT line, with serve's CPU
# ticks meanwhile, goes to NAME's results.
serve_run() {
  local name=$1 load=$2 before out=${serve_dir[$1]}
  shift 2
  serve_wanted "$load" || return 0
  printf '\n== %s at %s (load average %s)\n+' "$load" "$name" "$(cut -d' ' -f1-3 /proc/loadavg)"
  printf ' %q' "$@"
  echo
  before=$(serve_cpu "$name")
  "$@" | tee "$out/$load.txt" || true
  echo "$(grep '^RESULT' "$out/$load.txt" || echo "RESULT $load 0 none errors=no-result count=0") cpu=$(($(serve_cpu "$name") - before))" \
    >>"${serve_results[$name]}"
  echo "serve $name: peak RSS so far $(awk '/VmHWM/ {print $2, $3}' "/proc/${serve_pid[$name]}/status")"
}

# The loads, each against serve NAME for SECONDS (the query and filter run to the last page instead,
# -d only a bound). Threads and connections, for 2 cores that wrk shares with serve (wrk takes 10-15%
# of one here):
# - query, filter: one connection, as a client reading a partition follows one continuation at a time.
# - reads, photos: 32 connections; 64 gave 5-10% more but a p99 past 10 ms, 16 less throughput.
#   One wrk thread: wrk starts each thread as soon as its init() is done, and its clock once all are,
#   so a second thread's init (the reads load a million keys, 2-3 s) would count the first one's
#   requests in that time, against a shorter duration.
# - batch: 8 connections: the inserts take SQLite's one writer in turn, and 8 keep it busy while the
#   next bodies are parsed (4 gave 8% less, 16 the same).
serve_bound() { # the query's bound on time: 120 s a million events
  local events=$1
  echo $((events < 1000000 ? 120 : 120 * events / 1000000))
}
serve_load_query() {
  serve_run "$1" query wrk -t1 -c1 -d"$(serve_bound "$2")s" --timeout 10s -s "$root/bench/serve-query.lua" "${serve_table[$1]}" \
    -- "$tsas" events Events
}
# The events of one day of the seeded year, 2026-07-01 (about 1 in 365), through the partition's
# continuations: no index holds EventDate, so every page reads its way through the partition.
serve_filter="EventDate ge datetime'2026-07-01T00:00:00Z' and EventDate lt datetime'2026-07-02T00:00:00Z'"
serve_load_filter() {
  serve_run "$1" filter wrk -t1 -c1 -d"$(serve_bound "$2")s" --timeout 10s -s "$root/bench/serve-query.lua" "${serve_table[$1]}" \
    -- "$tsas" events Events "$serve_filter"
}
serve_load_reads() {
  serve_run "$1" reads wrk -t1 -c32 -d"${seconds}s" --latency -s "$root/bench/serve-reads.lua" "${serve_table[$1]}" \
    -- "$tsas" events "${serve_dir[$1]}/keys.csv"
}
serve_load_photos() {
  serve_run "$1" photos wrk -t1 -c32 -d"${seconds}s" --latency -s "$root/bench/serve-photos.lua" "${serve_blob[$1]}" \
    -- "$bsas" "${serve_dir[$1]}/speakers.csv"
}
serve_load_batch() {
  serve_wanted batch || return 0
  # A fresh table for the inserts, made with the SAS too (one an interrupted run left is deleted).
  curl -sS -o /dev/null -X DELETE "${serve_table[$1]}/devstoreaccount1/Tables('benchinsert')?$tsas" || true
  curl -fsS -o /dev/null -X POST "${serve_table[$1]}/devstoreaccount1/Tables?$tsas" -H 'Content-Type: application/json' \
    -H 'Accept: application/json;odata=nometadata' -d '{"TableName":"benchinsert"}'
  serve_run "$1" batch wrk -t1 -c8 -d"${seconds}s" --timeout 10s --latency -s "$root/bench/serve-batch.lua" "${serve_table[$1]}" \
    -- "$tsas" benchinsert
}

# serve_stop NAME: stops serve NAME and adds its peak RSS over the loads (VmHWM) to its results. A
# store served itself loses the inserted table first (deleting a few million entities takes a minute).
serve_stop() {
  local name=$1 out=${serve_dir[$1]} peak
  peak=$(awk '/VmHWM/ {print $2}' "/proc/${serve_pid[$name]}/status") # KB, over the loads (not the delete)
  if [ "${serve_file[$name]}" = "$out/store.sqlite" ] && serve_wanted batch; then
    echo "serve $name: deleting the inserted table…"
    curl -sS -o /dev/null --max-time 3600 -X DELETE "${serve_table[$name]}/devstoreaccount1/Tables('benchinsert')?$tsas" || true
  fi
  kill -TERM "${serve_pid[$name]}"
  wait "${serve_timer[$name]}" || true
  unset "serve_pid[$name]"
  rm -f "$out"/run.sqlite*
  echo "serve $name: peak RSS $((peak / 1024)) MB over the loads, $(($(tail -n 1 "$out/serve.maxrss") / 1024)) MB to its end (GNU time)"
  echo "RESULT memory $((peak / 1024)) MB errors=0" >>"${serve_results[$name]}"
}

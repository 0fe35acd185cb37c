-- wrk script (bench/serve): point reads of random entities, GET /devstoreaccount1/TABLE(PartitionKey=
-- '…',RowKey='…'), the keys drawn from a CSV of PartitionKey,RowKey (export --columns RowKey).
--
--   wrk -t1 -c32 -d30s --latency -s bench/serve-reads.lua http://127.0.0.1:10002 -- SAS TABLE KEYS.csv
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  local sas, tableName = args[1], args[2]
  wrk.headers["Accept"] = "application/json;odata=minimalmetadata"
  wrk.headers["x-ms-version"] = "2019-02-02"
  prefix, suffix = "/devstoreaccount1/" .. tableName .. "(PartitionKey='", "')?" .. sas
  keys = {} -- "Events',RowKey='…": a million whole paths would take a few hundred MB per thread
  for line in io.lines(args[3]) do
    local partition, row = line:match("^([^,]*),([^,\r]*)")
    if partition ~= "PartitionKey" then keys[#keys + 1] = partition .. "',RowKey='" .. row end
  end
  math.randomseed(id)
end

function request() return wrk.format("GET", prefix .. keys[math.random(#keys)] .. suffix) end

function done(summary, latency)
  local e = summary.errors
  local errors = e.status + e.connect + e.read + e.write + e.timeout
  print(string.format("RESULT reads %.0f requests/s p99=%.2fms errors=%d count=%d",
    summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000, errors, summary.requests))
end

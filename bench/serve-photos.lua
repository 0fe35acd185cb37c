-- wrk script (bench/serve): GETs of the speakers' photos, the URLs as seed wrote them (ImageUrl,
-- http://127.0.0.1:10000/speakeasy/speakers/…) but under the account the SAS signs.
--
--   wrk -t1 -c32 -d30s --latency -s bench/serve-photos.lua http://127.0.0.1:10000 -- SAS SPEAKERS.csv
function init(args)
  local sas = args[1]
  paths = {}
  for line in io.lines(args[2]) do
    local rest = line:match(",https?://[^/]+/[^/]+(/[^,\r]+)")
    if rest then paths[#paths + 1] = "/devstoreaccount1" .. rest .. "?" .. sas end
  end
  assert(#paths > 0, "no ImageUrl in " .. args[2])
  math.randomseed(#paths)
end

function request() return wrk.format("GET", paths[math.random(#paths)]) end

function done(summary, latency)
  local e = summary.errors
  local errors = e.status + e.connect + e.read + e.write + e.timeout
  print(string.format("RESULT photos %.0f requests/s p99=%.2fms errors=%d count=%d",
    summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000, errors, summary.requests))
end

-- wrk script (bench/serve): one client queries one partition page by page, as an SDK's
-- query_entities does: $filter on the PartitionKey, $top=1000, then each x-ms-continuation-
-- NextPartitionKey/NextRowKey sent back, until a page comes without them. Run it with -t1 -c1: the
-- pages follow one another. It counts the entities the pages hold, and ends the run at the last page.
-- With a FILTER, the query is "PartitionKey eq 'PARTITION' and FILTER" and its RESULT line is named
-- filter: its pages may be short, or empty, while continuations follow.
--
--   wrk -t1 -c1 -d120s -s bench/serve-query.lua http://127.0.0.1:10002 -- SAS TABLE PARTITION [FILTER]
local ffi = require("ffi")
ffi.cdef [[ int kill(int pid, int sig); int getpid(void); ]]

local thread

function setup(t) thread = t end

local function encode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", c:byte()) end))
end

function init(args)
  local sas, tableName, partition, filter = args[1], args[2], args[3], args[4]
  local condition = "PartitionKey eq '" .. partition .. "'" .. (filter and (" and " .. filter) or "")
  first = "/devstoreaccount1/" .. tableName .. "()?" .. sas .. "&$filter=" .. encode(condition) .. "&$top=1000"
  name = filter and "filter" or "query"
  wrk.headers["Accept"] = "application/json;odata=minimalmetadata"
  wrk.headers["x-ms-version"] = "2019-02-02"
  entities, pages, failed, complete = 0, 0, 0, false
  path = first
end

function request() return wrk.format("GET", path) end

function response(status, headers, body)
  if status ~= 200 then
    failed = failed + 1
    if failed == 1 then print("first failure: " .. status .. " " .. body:sub(1, 300)) end
    return
  end
  pages = pages + 1
  -- Each entity has its PartitionKey once (minimal metadata): count them, a short last page too.
  local at = 1
  while true do
    at = body:find('"PartitionKey":', at, true)
    if not at then break end
    entities, at = entities + 1, at + 15
  end
  local nextPartition, nextRow
  for name, value in pairs(headers) do
    name = name:lower()
    if name == "x-ms-continuation-nextpartitionkey" then nextPartition = value end
    if name == "x-ms-continuation-nextrowkey" then nextRow = value end
  end
  if nextPartition then
    path = first .. "&NextPartitionKey=" .. encode(nextPartition) .. "&NextRowKey=" .. encode(nextRow or "")
  else
    -- The end: stop this thread, and wake wrk's main thread (which sleeps for -d) as Ctrl-C does.
    complete = true
    wrk.thread:stop()
    ffi.C.kill(ffi.C.getpid(), 2)
  end
end

function done(summary)
  local e = summary.errors
  local errors = thread:get("failed") + e.connect + e.read + e.write + e.timeout
  local seconds = summary.duration / 1e6
  local count = thread:get("entities")
  print(string.format("pages %d, entities %d in %.2f s, %s", thread:get("pages"), count, seconds,
    thread:get("complete") and "to the last page" or "NOT to the last page (-d too short)"))
  print(string.format("RESULT %s %.0f entities/s errors=%d count=%d pages=%d", thread:get("name"), count / seconds,
    errors, count, thread:get("pages")))
end

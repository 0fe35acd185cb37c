-- wrk script (bench/serve): entity group transactions of 100 inserts (POST /devstoreaccount1/$batch),
-- framed as azure-data-tables 12.7 frames them (a changeset of application/http parts, no Prefer, so
-- each insert is answered with the stored entity). Every entity is new: each wrk thread writes its own
-- partition, row keys counting up. The entities are the size of seeded events (about 1.5 KB).
-- A batch counts only when the changeset succeeded: the reply is 202 even when it failed, and
-- then holds one part with the failing operation's status.
--
--   wrk -t1 -c8 -d30s -s bench/serve-batch.lua http://127.0.0.1:10002 -- SAS TABLE
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

local description = string.rep("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 20)

function init(args)
  sas, tableName = args[1], args[2]
  local url = string.format("http://%s:%s/devstoreaccount1/%s", wrk.host, wrk.port, tableName)
  batches, failed = 0, 0
  -- Every part is the same but for its Content-ID and RowKey, so its text is made once here and a
  -- request only joins pieces: the load generator shares the 2 cores with serve, and building each
  -- entity anew took a third of one.
  local partition = string.format("bench-%d", id)
  entityHead = string.format('{"PartitionKey": "%s", "RowKey": "', partition)
  entityTail = string.format(
    '", "EventDate@odata.type": "Edm.DateTime", "EventDate": "2026-04-11T23:09:00Z", '
      .. '"EventName": "Load Test Meetup", "EventLocation": "Chicago, IL", "EventDescription": "%s", '
      .. '"SpeakerKey": "15adea52-1d44-50df-90f2-f4c165e6ed8b", "SpeakerName": "Grace Garcia"}', description)
  local entityLength = #entityHead + 14 + #entityTail -- row keys are %010d-%03d
  partHead = "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: "
  requestHead = table.concat({
    "",
    "",
    "POST " .. url .. " HTTP/1.1",
    "Content-Type: application/json",
    "Content-Length: " .. entityLength,
    "x-ms-version: 2019-02-02",
    "DataServiceVersion: 3.0",
    "Accept: application/json;odata=minimalmetadata",
    "",
    "",
  }, "\r\n")
end

-- 100 inserts in one changeset, as the SDK writes them (but for its x-ms-date and Date lines).
function request()
  batches = batches + 1
  local batch = string.format("batch_%d_%d", id, batches)
  local changeset = string.format("changeset_%d_%d", id, batches)
  local body = { "--", batch, "\r\nContent-Type: multipart/mixed; boundary=", changeset, "\r\n" }
  local n = #body
  for i = 0, 99 do
    body[n + 1] = "\r\n--"
    body[n + 2] = changeset
    body[n + 3] = partHead
    body[n + 4] = i
    body[n + 5] = requestHead
    body[n + 6] = entityHead
    body[n + 7] = string.format("%010d-%03d", batches, i)
    body[n + 8] = entityTail
    n = n + 8
  end
  body[n + 1] = "\r\n--" .. changeset .. "--\r\n\r\n--" .. batch .. "--\r\n"
  return wrk.format("POST", "/devstoreaccount1/$batch?" .. sas, {
    ["x-ms-version"] = "2019-02-02",
    ["DataServiceVersion"] = "3.0",
    ["MaxDataServiceVersion"] = "3.0;NetFx",
    ["Content-Type"] = "multipart/mixed; boundary=" .. batch,
    ["Accept"] = "application/json",
  }, table.concat(body))
end

function response(status, headers, body)
  local inner = body:match("HTTP/1%.1 (%d%d%d)")
  if status ~= 202 or inner ~= "201" then
    failed = failed + 1
    if failed == 1 then print("first failure: " .. status .. " " .. body:sub(1, 600)) end
  end
end

function done(summary)
  local e = summary.errors
  local failed = 0
  for _, thread in ipairs(threads) do failed = failed + thread:get("failed") end
  local entities = (summary.requests - failed) * 100
  print(string.format("RESULT batch %.0f entities/s errors=%d count=%d", entities / (summary.duration / 1e6),
    failed + e.connect + e.read + e.write + e.timeout, entities))
end

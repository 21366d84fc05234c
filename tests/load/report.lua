-- wrk script: POST /api/v1/reports as the user of $TOKEN, analysing pages
-- of the local fixture site at $FIXTURE (host:port, on 127.0.0.1).
local i = 0
local headers

function init(args)
  headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. os.getenv("TOKEN") }
  i = math.random(1000)
end

function request()
  i = i + 1
  return wrk.format("POST", "/api/v1/reports", headers, '{"url":"http://' .. os.getenv("FIXTURE") .. '/page/' .. (i % 50) .. '"}')
end

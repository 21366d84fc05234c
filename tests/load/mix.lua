-- wrk script: the realistic mix. Each thread cycles through 1,000 requests
-- drawn at start: 700 GET /api/v1/pincodes/{pin} at random PIN codes of
-- $PINS_FILE and 300 GET /api/v1/pincodes/nearby at random office points of
-- $POINTS_FILE ("latitude longitude" per line), shuffled.
local reqs, i = {}, 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("seed", threads)
end

function init(args)
  math.randomseed(1000003 * (seed or 1))
  local pins, points = {}, {}
  for line in io.lines(os.getenv("PINS_FILE")) do pins[#pins + 1] = line end
  for line in io.lines(os.getenv("POINTS_FILE")) do
    local lat, lon = line:match("^(%S+)%s+(%S+)$")
    if lat then points[#points + 1] = { lat, lon } end
  end
  for n = 1, 700 do
    reqs[#reqs + 1] = wrk.format("GET", "/api/v1/pincodes/" .. pins[math.random(#pins)])
  end
  for n = 1, 300 do
    local p = points[math.random(#points)]
    reqs[#reqs + 1] = wrk.format("GET", "/api/v1/pincodes/nearby?latitude=" .. p[1] .. "&longitude=" .. p[2])
  end
  for n = #reqs, 2, -1 do
    local m = math.random(n)
    reqs[n], reqs[m] = reqs[m], reqs[n]
  end
  i = math.random(#reqs)
end

function request()
  i = i % #reqs + 1
  return reqs[i]
end

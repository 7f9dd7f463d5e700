-- wrk script for scripts/bench.sh's serve part: sends the client's bearer token and, when the run ends, prints
-- `key value` lines (requests/s, latency p50/p90/p99 and max in ms, requests, errors) for bench.sh's median_of.
--   COFFER_BENCH_TOKEN=coffer_... wrk -t2 -c16 -d10s --latency -s scripts/bench/wrk_auth.lua URL
local token = os.getenv("COFFER_BENCH_TOKEN")
if not token or token == "" then
    error("wrk_auth.lua: set COFFER_BENCH_TOKEN to the client's bearer token")
end
wrk.headers["Authorization"] = "Bearer " .. token

function done(summary, latency, requests)
    local seconds = summary.duration / 1e6
    local e = summary.errors
    -- wrk prints its own report on stdout first; these lines follow it.
    io.write(string.format("requests_per_s %.1f\n", summary.requests / seconds))
    io.write(string.format("p50_ms %.3f\n", latency:percentile(50) / 1000))
    io.write(string.format("p90_ms %.3f\n", latency:percentile(90) / 1000))
    io.write(string.format("p99_ms %.3f\n", latency:percentile(99) / 1000))
    io.write(string.format("max_ms %.3f\n", latency.max / 1000))
    io.write(string.format("requests %d\n", summary.requests))
    io.write(string.format("bytes_per_request %.0f\n", summary.bytes / math.max(summary.requests, 1)))
    io.write(string.format("errors %d\n", e.connect + e.read + e.write + e.timeout + e.status))
end

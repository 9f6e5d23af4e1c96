-- wrk script for benchmarks/run.sh: a query/add mix, chosen per request.
-- Usage: wrk -s benchmarks/mix.lua <base-url> -- <query path> <add path> [add percent]
-- The paths carry their query strings; the add percent defaults to 10.
local query_request, add_request, add_share

function init(args)
    query_request = wrk.format("GET", args[1])
    add_request = wrk.format("GET", args[2])
    add_share = tonumber(args[3] or "10") / 100
    -- A fixed seed keeps runs comparable; the sequence still interleaves the two.
    math.randomseed(9)
end

function request()
    if math.random() < add_share then
        return add_request
    end
    return query_request
end

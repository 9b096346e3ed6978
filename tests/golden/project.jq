# The figures evtop's JSON and tests/ref/figures.hs share, one
# "path=value" a line (golden.sh, ranges.sh).  evtop names tags 5 and 6 as
# GHC does (RUN_SPARK, STEAL_SPARK); ghc-events 0.17 counts them as
# SPARK_RUN and SPARK_STEAL.
{
  events: (.events | with_entries(.key |= (if . == "RUN_SPARK" then
    "SPARK_RUN" elif . == "STEAL_SPARK" then "SPARK_STEAL" else . end))),
  events_total,
  gc: {collections: .gc.collections, pause_total_ns: .gc.pause_total_ns,
    pause_max_ns: .gc.pause_max_ns, requests: .gc.requests,
    global_syncs: .gc.global_syncs},
  threads: {created: .threads.created},
  prof: {samples: .prof.samples, top_self: (.prof.top_self |
    if type == "array" then .[0] else . end |
    if . == null then null else {cost_centre: .cost_centre,
    module: .["module"], samples: .samples} end)},
  heap: {censuses: .heap.censuses},
  nonmoving: {censuses: .nonmoving.censuses,
    census_events: .nonmoving.census_events},
  messages: {user: .messages.user, markers: .messages.markers}
} | paths(scalars) as $p | "\($p | map(tostring) | join("."))=\(getpath($p))"

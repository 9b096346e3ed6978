{-# OPTIONS_GHC -Wall -Werror=incomplete-patterns #-}
-- figures.hs: independent figures for an eventlog, computed with the
-- ghc-events 0.17 library (a second opinion for evtop's own decoder).
--
-- Usage: figures FILE [FROM TO]   prints ONE line of JSON on stdout:
--
-- {"events":{"GC_END":N,...},"events_total":N,
--  "gc":{"collections":N,"pause_total_ns":N,"pause_max_ns":N,"requests":N,
--        "global_syncs":N},
--  "threads":{"created":N},
--  "prof":{"samples":N,"top_self":{"cost_centre":L,"module":M,"samples":N}|null},
--  "heap":{"censuses":N},
--  "nonmoving":{"censuses":N,"census_events":N},
--  "messages":{"user":N,"markers":N}}
--
-- Definitions:
-- * events: count per GHC tag name (EventLogFormat.h without EVENT_), only
--   tags that occur, keys sorted.  Block markers are not counted: 0.17
--   consumes them and never returns them.  Tags 5/6 (old RUN_SPARK,
--   STEAL_SPARK) decode to the same constructors as 38/39 and are counted
--   as SPARK_RUN/SPARK_STEAL.  An event 0.17 cannot decode (UnknownEvent,
--   e.g. tag 208) is counted under the GHC name of its tag, or UNKNOWN_<tag>.
--   events_total = sum of these counts.
-- * All other figures use the events sorted by time with a stable sort
--   (ties keep file order).
-- * gc: a collection starts at a GC_START on any capability when none is
--   open; a capability is in GC from its GC_START to its GC_END (a
--   GC_START on a capability already in GC, or a GC_END on one not in GC,
--   changes nothing).  It closes at the GC_END that leaves no capability
--   in GC, until the log's first GC_STATS_GHC; from then on at the GC_END
--   of the capability that posts a GC_STATS_GHC while it is open (the
--   leader: at once if that GC_END came first; a GC_END from a worker
--   after its leader's changes nothing, as a collection may have begun
--   meanwhile), or, if that capability was not in it, as before; one
--   that had no GC_STATS_GHC closes at its last GC_END when a GC_START
--   finds no capability in GC.  pause =
--   the closing GC_END's time - the leader's GC_START's (the first
--   GC_START's if the leader's is not within the collection): the pause
--   the RTS reports (+RTS -s).  A collection still open at the end of the
--   log is not counted.  Events without a capability count as one more
--   "capability" of their own.
-- * gc.requests = REQUEST_SEQ_GC and REQUEST_PAR_GC events, gc.global_syncs
--   = GC_GLOBAL_SYNC events.
-- * threads.created = CREATE_THREAD events.
-- * prof.samples = PROF_SAMPLE_COST_CENTRE events; prof.top_self = the cost
--   centre that is innermost (first id of the stack) in the most samples
--   (ties: lower id), with label and module from HEAP_PROF_COST_CENTRE
--   (null if not defined); null when there is no sample with a stack.
-- * heap.censuses = HEAP_PROF_SAMPLE_BEGIN events.
-- * nonmoving.census_events = NONMOVING_HEAP_CENSUS events;
--   nonmoving.censuses = maximal runs of consecutive NONMOVING_HEAP_CENSUS
--   events (any other decoded event in between ends a run).
-- * messages.user = USER_MSG events, messages.markers = USER_MARKER events.
--
-- With FROM and TO (event times in ns), the figures of the range
-- FROM <= time < TO: events counted by the same rules among the events in
-- the range; collections whose first GC_START is at or after FROM and that
-- close before TO (over the whole log: a collection open at FROM is not the
-- range's); nonmoving census runs whose first event is in the
-- range; prof.top_self among the range's samples, named from the whole
-- log's definitions.
--
-- A log that ends early (truncated, even in the middle of an event) is read
-- up to its last complete event without any error: ghc-events 0.17 does
-- not tell a truncated log from a complete one (its incremental decoder is
-- still waiting for input at the end of both).  A log that cannot be
-- decoded (bad header, a parse error): message on stderr, exit 1.
module Main (main) where

import qualified Data.ByteString.Lazy as BL
import Data.Char (ord)
import Data.List (foldl', intercalate, sortOn)
import qualified Data.Map.Strict as M
import qualified Data.Set as S
import qualified Data.Text as T
import qualified Data.Vector.Unboxed as V
import Data.Word (Word64)
import GHC.RTS.Events
import GHC.RTS.Events.Incremental (readEventLog)
import Numeric (showHex)
import System.Environment (getArgs)
import System.Exit (exitWith, ExitCode (..))
import System.IO

-- | GHC name of a tag number, for events 0.17 returns as UnknownEvent.
tagName :: Int -> String
tagName n = case n of
  13 -> "CREATE_SPARK"
  14 -> "SPARK_TO_THREAD"
  59 -> "HACK_BUG_T9003"
  208 -> "NONMOVING_PRUNED_SEGMENTS"
  _ -> "UNKNOWN_" ++ show n

-- | GHC (EventLogFormat.h) name of a decoded event; Nothing for block markers.
ghcName :: EventInfo -> Maybe String
ghcName ei = case ei of
  EventBlock {} -> Nothing
  UnknownEvent {ref = r} -> Just (tagName (fromIntegral r))
  Startup {} -> Just "STARTUP"
  Shutdown -> Just "SHUTDOWN"
  CreateThread {} -> Just "CREATE_THREAD"
  RunThread {} -> Just "RUN_THREAD"
  StopThread {} -> Just "STOP_THREAD"
  ThreadRunnable {} -> Just "THREAD_RUNNABLE"
  MigrateThread {} -> Just "MIGRATE_THREAD"
  WakeupThread {} -> Just "THREAD_WAKEUP"
  ThreadLabel {} -> Just "THREAD_LABEL"
  CreateSparkThread {} -> Just "CREATE_SPARK_THREAD"
  SparkCounters {} -> Just "SPARK_COUNTERS"
  SparkCreate -> Just "SPARK_CREATE"
  SparkDud -> Just "SPARK_DUD"
  SparkOverflow -> Just "SPARK_OVERFLOW"
  SparkRun -> Just "SPARK_RUN"
  SparkSteal {} -> Just "SPARK_STEAL"
  SparkFizzle -> Just "SPARK_FIZZLE"
  SparkGC -> Just "SPARK_GC"
  TaskCreate {} -> Just "TASK_CREATE"
  TaskMigrate {} -> Just "TASK_MIGRATE"
  TaskDelete {} -> Just "TASK_DELETE"
  RequestSeqGC -> Just "REQUEST_SEQ_GC"
  RequestParGC -> Just "REQUEST_PAR_GC"
  StartGC -> Just "GC_START"
  GCWork -> Just "GC_WORK"
  GCIdle -> Just "GC_IDLE"
  GCDone -> Just "GC_DONE"
  EndGC -> Just "GC_END"
  GlobalSyncGC -> Just "GC_GLOBAL_SYNC"
  GCStatsGHC {} -> Just "GC_STATS_GHC"
  MemReturn {} -> Just "MEM_RETURN"
  HeapAllocated {} -> Just "HEAP_ALLOCATED"
  HeapSize {} -> Just "HEAP_SIZE"
  BlocksSize {} -> Just "BLOCKS_SIZE"
  HeapLive {} -> Just "HEAP_LIVE"
  HeapInfoGHC {} -> Just "HEAP_INFO_GHC"
  CapCreate {} -> Just "CAP_CREATE"
  CapDelete {} -> Just "CAP_DELETE"
  CapDisable {} -> Just "CAP_DISABLE"
  CapEnable {} -> Just "CAP_ENABLE"
  CapsetCreate {} -> Just "CAPSET_CREATE"
  CapsetDelete {} -> Just "CAPSET_DELETE"
  CapsetAssignCap {} -> Just "CAPSET_ASSIGN_CAP"
  CapsetRemoveCap {} -> Just "CAPSET_REMOVE_CAP"
  RtsIdentifier {} -> Just "RTS_IDENTIFIER"
  ProgramArgs {} -> Just "PROGRAM_ARGS"
  ProgramEnv {} -> Just "PROGRAM_ENV"
  OsProcessPid {} -> Just "OSPROCESS_PID"
  OsProcessParentPid {} -> Just "OSPROCESS_PPID"
  WallClockTime {} -> Just "WALL_CLOCK_TIME"
  Message {} -> Just "LOG_MSG"
  UserMessage {} -> Just "USER_MSG"
  UserMarker {} -> Just "USER_MARKER"
  Version {} -> Just "VERSION"
  ProgramInvocation {} -> Just "PROGRAM_INVOCATION"
  CreateMachine {} -> Just "CREATE_MACHINE"
  KillMachine {} -> Just "KILL_MACHINE"
  CreateProcess {} -> Just "CREATE_PROCESS"
  KillProcess {} -> Just "KILL_PROCESS"
  AssignThreadToProcess {} -> Just "ASSIGN_THREAD_TO_PROCESS"
  EdenStartReceive -> Just "EDEN_START_RECEIVE"
  EdenEndReceive -> Just "EDEN_END_RECEIVE"
  SendMessage {} -> Just "SEND_MESSAGE"
  ReceiveMessage {} -> Just "RECEIVE_MESSAGE"
  SendReceiveLocalMessage {} -> Just "SEND_RECEIVE_LOCAL_MESSAGE"
  InternString {} -> Just "INTERN_STRING"
  MerStartParConjunction {} -> Just "MER_START_PAR_CONJUNCTION"
  MerEndParConjunction {} -> Just "MER_STOP_PAR_CONJUNCTION"
  MerEndParConjunct {} -> Just "MER_STOP_PAR_CONJUNCT"
  MerCreateSpark {} -> Just "MER_CREATE_SPARK"
  MerFutureCreate {} -> Just "MER_FUT_CREATE"
  MerFutureWaitNosuspend {} -> Just "MER_FUT_WAIT_NOSUSPEND"
  MerFutureWaitSuspended {} -> Just "MER_FUT_WAIT_SUSPENDED"
  MerFutureSignal {} -> Just "MER_FUT_SIGNAL"
  MerLookingForGlobalThread -> Just "MER_LOOKING_FOR_GLOBAL_CONTEXT"
  MerWorkStealing -> Just "MER_WORK_STEALING"
  MerLookingForLocalSpark -> Just "MER_LOOKING_FOR_LOCAL_SPARK"
  MerReleaseThread {} -> Just "MER_RELEASE_CONTEXT"
  MerCapSleeping -> Just "MER_ENGINE_SLEEPING"
  MerCallingMain -> Just "MER_CALLING_MAIN"
  PerfName {} -> Just "PERF_NAME"
  PerfCounter {} -> Just "PERF_COUNTER"
  PerfTracepoint {} -> Just "PERF_TRACEPOINT"
  HeapProfBegin {} -> Just "HEAP_PROF_BEGIN"
  HeapProfCostCentre {} -> Just "HEAP_PROF_COST_CENTRE"
  InfoTableProv {} -> Just "IPE"
  HeapProfSampleBegin {} -> Just "HEAP_PROF_SAMPLE_BEGIN"
  HeapProfSampleEnd {} -> Just "HEAP_PROF_SAMPLE_END"
  HeapBioProfSampleBegin {} -> Just "HEAP_BIO_PROF_SAMPLE_BEGIN"
  HeapProfSampleCostCentre {} -> Just "HEAP_PROF_SAMPLE_COST_CENTRE"
  HeapProfSampleString {} -> Just "HEAP_PROF_SAMPLE_STRING"
  ProfSampleCostCentre {} -> Just "PROF_SAMPLE_COST_CENTRE"
  ProfBegin {} -> Just "PROF_BEGIN"
  UserBinaryMessage {} -> Just "USER_BINARY_MSG"
  ConcMarkBegin -> Just "CONC_MARK_BEGIN"
  ConcMarkEnd {} -> Just "CONC_MARK_END"
  ConcSyncBegin -> Just "CONC_SYNC_BEGIN"
  ConcSyncEnd -> Just "CONC_SYNC_END"
  ConcSweepBegin -> Just "CONC_SWEEP_BEGIN"
  ConcSweepEnd -> Just "CONC_SWEEP_END"
  ConcUpdRemSetFlush {} -> Just "CONC_UPD_REM_SET_FLUSH"
  NonmovingHeapCensus {} -> Just "NONMOVING_HEAP_CENSUS"
  TickyCounterDef {} -> Just "TICKY_COUNTER_DEF"
  TickyCounterSample {} -> Just "TICKY_COUNTER_SAMPLE"
  TickyBeginSample -> Just "TICKY_COUNTER_BEGIN_SAMPLE"

-- GC collections ------------------------------------------------------------

data Close = CloseNone | CloseAll | CloseCap !Int deriving Eq

data GcAcc = GcAcc
  { inGc :: !(S.Set Int)
  , lo :: !Word64, hi :: !Word64     -- the range: collections started in it
  , open :: !Bool
  , started :: !Word64               -- the open collection's first GC_START
  , nbegun :: !Int                   -- collections begun
  , startT :: !(M.Map Int Word64)    -- each capability's last GC_START
  , endIn :: !(M.Map Int (Int, Word64)) -- its last GC_END in a collection
  , lastEnd :: !Word64
  , statsMode :: !Bool
  , closeOn :: !Close
  , ncoll :: !Int
  , ptotal :: !Word64
  , pmax :: !Word64
  }

gcInit :: Word64 -> Word64 -> GcAcc
gcInit a b = GcAcc S.empty a b False 0 0 M.empty M.empty 0 False CloseNone 0 0 0

gcStep :: GcAcc -> Event -> GcAcc
gcStep acc ev = case evSpec ev of
  StartGC
    | S.member c (inGc acc) -> acc
    | open acc && S.null (inGc acc) -> begin (close 0 (lastEnd acc) acc)
    | open acc -> acc { inGc = S.insert c (inGc acc), startT = M.insert c t (startT acc) }
    | otherwise -> begin acc
  EndGC
    | not (S.member c (inGc acc)) -> acc
    | not (open acc) -> acc { inGc = S.delete c (inGc acc) }
    | otherwise ->
        let a = acc { inGc = S.delete c (inGc acc)
                    , endIn = M.insert c (nbegun acc, t) (endIn acc)
                    , lastEnd = max (lastEnd acc) t }
        in if closeOn a == CloseCap c then close (M.findWithDefault 0 c (startT a)) t a
           else if S.null (inGc a) && (not (statsMode a) || closeOn a == CloseAll)
             then close 0 t a
             else a
  GCStatsGHC {}
    | not (open acc) -> acc { statsMode = True }
    | S.member c (inGc acc) -> acc { statsMode = True, closeOn = CloseCap c }
    | Just (n, te) <- M.lookup c (endIn acc), n == nbegun acc ->
        close (M.findWithDefault 0 c (startT acc)) te acc { statsMode = True }
    | S.null (inGc acc) -> close 0 (lastEnd acc) acc { statsMode = True }
    | otherwise -> acc { statsMode = True, closeOn = CloseAll }
  _ -> acc
  where
    c = maybe (-1) id (evCap ev)
    t = evTime ev
    begin a = a { inGc = S.insert c (inGc a), startT = M.insert c t (startT a)
                , open = True, started = t, nbegun = nbegun a + 1
                , lastEnd = t, closeOn = CloseNone }

-- The open collection closes at e; its pause from its leader's GC_START s
-- if that is within it, else from its first GC_START.
close :: Word64 -> Word64 -> GcAcc -> GcAcc
close s e a
  | started a < lo a || e >= hi a = a'
  | otherwise = a' { ncoll = ncoll a + 1, ptotal = ptotal a + p, pmax = max (pmax a) p }
  where
    a' = a { open = False }
    st = if s > started a && s <= e then s else started a
    p = e - st

-- nonmoving census runs -----------------------------------------------------

censusRuns :: (Event -> Bool) -> [Event] -> Int
censusRuns inR = go False 0
  where
    go _ n [] = n
    go prev n (e : es) = case evSpec e of
      NonmovingHeapCensus {} -> go True (if prev || not (inR e) then n else n + 1) es
      EventBlock {} -> go prev n es
      _ -> go False n es

-- JSON ----------------------------------------------------------------------

jstr :: String -> String
jstr s = "\"" ++ concatMap esc s ++ "\""
  where
    esc '"' = "\\\""
    esc '\\' = "\\\\"
    esc '\n' = "\\n"
    esc '\t' = "\\t"
    esc '\r' = "\\r"
    esc ch
      | ord ch < 0x20 = "\\u" ++ pad4 (showHex (ord ch) "")
      | otherwise = [ch]
    pad4 x = replicate (4 - length x) '0' ++ x

jobj :: [(String, String)] -> String
jobj kvs = "{" ++ intercalate "," [jstr k ++ ":" ++ v | (k, v) <- kvs] ++ "}"

main :: IO ()
main = do
  argv <- getArgs
  (file, rlo, rhi) <- case argv of
    [f] -> return (f, 0, maxBound)
    [f, a, b] -> return (f, read a, read b)
    _ -> hPutStrLn stderr "usage: figures FILE [FROM TO]" >> exitWith (ExitFailure 2)
  hSetEncoding stdout utf8
  hSetEncoding stderr utf8
  bytes <- BL.readFile file
  allEvs <- case readEventLog bytes of
    Left err -> do
      hPutStrLn stderr ("figures: " ++ file ++ ": " ++ err)
      exitWith (ExitFailure 1)
    Right (EventLog _ (Data es), Nothing) -> return es
    Right (EventLog _ (Data es), Just err) -> do
      -- events after a parse error are lost; say so but print the figures
      hPutStrLn stderr ("figures: warning: " ++ file ++ ": stopped at: " ++ err)
      return es
  let inR e = evTime e >= rlo && evTime e < rhi
      evs = filter inR allEvs
      sortedAll = sortOn evTime allEvs -- Data.List.sortOn is stable
      counts = M.fromListWith (+) [(n, 1 :: Int) | e <- evs, Just n <- [ghcName (evSpec e)]]
      cnt k = M.findWithDefault 0 k counts
      gc = foldl' gcStep (gcInit rlo rhi) sortedAll
      ccs = M.fromList [ (heapProfCostCentreId i, (heapProfLabel i, heapProfModule i))
                       | e <- allEvs, i@HeapProfCostCentre {} <- [evSpec e] ]
      selfCounts = M.fromListWith (+)
        [ (V.head st, 1 :: Int)
        | e <- evs, ProfSampleCostCentre {profCcsStack = st} <- [evSpec e], not (V.null st) ]
      -- M.toList is in ascending id order, so the first maximum is the lowest id
      top = case M.toList selfCounts of
        [] -> Nothing
        xs -> Just (foldl1 (\a b -> if snd b > snd a then b else a) xs)
      topJson = case top of
        Nothing -> "null"
        Just (cc, n) ->
          let (l, m) = maybe ("null", "null") (\(a, b) -> (jstr (T.unpack a), jstr (T.unpack b))) (M.lookup cc ccs)
          in jobj [("cost_centre", l), ("module", m), ("samples", show n)]
      out = jobj
        [ ("events", jobj [(k, show v) | (k, v) <- M.toAscList counts])
        , ("events_total", show (sum (M.elems counts)))
        , ("gc", jobj [ ("collections", show (ncoll gc))
                      , ("pause_total_ns", show (ptotal gc))
                      , ("pause_max_ns", show (pmax gc))
                      , ("requests", show (cnt "REQUEST_SEQ_GC" + cnt "REQUEST_PAR_GC"))
                      , ("global_syncs", show (cnt "GC_GLOBAL_SYNC")) ])
        , ("threads", jobj [("created", show (cnt "CREATE_THREAD"))])
        , ("prof", jobj [("samples", show (cnt "PROF_SAMPLE_COST_CENTRE")), ("top_self", topJson)])
        , ("heap", jobj [("censuses", show (cnt "HEAP_PROF_SAMPLE_BEGIN"))])
        , ("nonmoving", jobj [ ("censuses", show (censusRuns inR sortedAll))
                             , ("census_events", show (cnt "NONMOVING_HEAP_CENSUS")) ])
        , ("messages", jobj [("user", show (cnt "USER_MSG")), ("markers", show (cnt "USER_MARKER"))])
        ]
  putStrLn out

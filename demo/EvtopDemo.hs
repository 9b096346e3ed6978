-- EvtopDemo.hs: the program ./demo.sh runs for evtop to watch and steer.
--
-- It serves its eventlog on the Unix socket GHC_EVENTLOG_UNIX_PATH (the
-- writer of tests/sockprog/sockprog.c) and obeys evtop's control keys:
-- H, h start and stop heap profiling, c asks for a census, T, t start and
-- stop time profiling.  It runs about two minutes in phases, each
-- announced by a marker, that give every pane of evtop something to show:
--
--   steady    a few labelled workers at an even pace
--   hoard     an allocation burst whose live data keeps growing
--   gc-storm  short-lived garbage and forced collections, hundreds a second
--   fan-out   waves of thousands of short threads blocked on MVars and STM
--   hot       time spent in a few cost centres: fib, sortRuns, checksum
--   calm      the end: everything let go
--
-- Built by demo.sh: ghc -O -prof -fprof-auto-top -threaded -eventlog
-- -no-hs-main EvtopDemo.hs demo.c ../tests/sockprog/sockprog.c; run with
-- +RTS -N1 -l -p -hc -i3600 -RTS (one capability: see demo.c; the heap
-- census timer out of the way: censuses come from the keys).
-- Argument: the seconds of a phase (default 20).
module Main (main) where

import Control.Concurrent
import Control.Concurrent.STM
import Control.Exception (evaluate)
import Control.Monad
import Data.Bits (xor, shiftL)
import Data.IORef
import Data.List (foldl', sort)
import qualified Data.Map.Strict as M
import Debug.Trace (traceEventIO, traceMarkerIO)
import Foreign.C.String
import Foreign.C.Types
import Foreign.Marshal.Alloc (allocaBytes)
import GHC.Conc (labelThread)
import System.Environment (getArgs)
import System.Exit
import System.Mem (performMajorGC, performMinorGC)

foreign import ccall safe "sockprog_next_command"
  c_next_command :: CString -> CInt -> CInt -> IO CInt
foreign import ccall unsafe "demo_flush" c_flush :: IO ()
foreign import ccall unsafe "demo_census" c_census :: IO ()

spawn :: String -> IO () -> IO ThreadId
spawn name act = do
  t <- forkIO act
  labelThread t name
  return t

say :: String -> IO ()
say s = traceEventIO ("evtop-demo: " ++ s)

-- Run the workers for a phase, then stop them.
phase :: Int -> String -> String -> [(String, IO ())] -> IO ()
phase secs name what workers = do
  traceMarkerIO name
  say (name ++ ": " ++ what)
  ts <- mapM (uncurry spawn) workers
  threadDelay (secs * 1000000)
  mapM_ killThread ts

-- steady: even work, a little garbage, some sleep.
steady :: Int -> IO ()
steady k = forM_ [0 :: Int ..] $ \i -> do
  let m = M.fromList [(x * 7919 `mod` 10007, x) | x <- [1 .. 3000 + k * 500]]
  _ <- evaluate (M.foldl' (+) 0 m)
  when (i `mod` 50 == 0) $ say ("steady-" ++ show k ++ ": round " ++ show i)
  threadDelay 20000

-- hoard: keeps what it builds, so the live heap climbs.
hoard :: IORef [M.Map Int Int] -> IO ()
hoard ref = forM_ [0 :: Int ..] $ \i -> do
  let m = M.fromList [(x, x * i) | x <- [1 .. 2000]]
  _ <- evaluate (M.size m)
  modifyIORef' ref (m :)
  when (i `mod` 40 == 0) $ do
    n <- length <$> readIORef ref
    say ("hoard: " ++ show n ++ " maps kept")
  threadDelay 40000

-- gc-storm: garbage only, and a collection asked for every few ms.
storm :: Int -> IO ()
storm k = forM_ [0 :: Int ..] $ \i -> do
  _ <- evaluate (foldl' (+) 0 (map (* k) [1 .. 20000 :: Int]))
  if i `mod` 25 == 0 then performMajorGC else performMinorGC
  threadDelay 2000

-- fan-out: a wave of short threads, half waiting on an MVar each, half on
-- one TVar, then let go together.
fanOut :: IO ()
fanOut = forM_ [1 :: Int ..] $ \w -> do
  let n = 1500
  gate <- newTVarIO False
  done <- newEmptyMVar
  mvs <- forM [1 .. n] $ \i -> do
    mv <- newEmptyMVar
    _ <- spawn ("wave" ++ show w ++ "-mvar-" ++ show i) $
      takeMVar mv >>= \v -> putMVar done (v :: Int)
    _ <- spawn ("wave" ++ show w ++ "-stm-" ++ show i) $ do
      atomically (readTVar gate >>= check)
      putMVar done i
    return mv
  say ("fan-out: wave " ++ show w ++ ": " ++ show (2 * n) ++ " threads blocked")
  threadDelay 700000
  zipWithM_ putMVar mvs [1 ..]
  atomically (writeTVar gate True)
  replicateM_ (2 * n) (takeMVar done)
  threadDelay 300000

-- hot: three cost centres that take the time, in different shares.
fib :: Int -> Integer
fib n = if n < 2 then toInteger n else fib (n - 1) + fib (n - 2)

sortRuns :: Int -> Int
sortRuns i = sum (take 10 (sort [(x * 1103515245 + i) `mod` 65536 | x <- [1 .. 30000]]))

checksum :: Int -> Int
checksum i = foldl' (\h x -> (h `shiftL` 5) `xor` (h + x)) i [1 .. 200000]

crunch :: IO ()
crunch = forM_ [0 :: Int ..] $ \i -> do
  _ <- evaluate (fib 24)
  _ <- evaluate (sortRuns i)
  when (even i) $ void (evaluate (checksum i))
  when (i `mod` 20 == 0) $ say ("hot: round " ++ show i)
  threadDelay 1000

-- What the client sends; H and h switch the census ticker.
commands :: IORef Bool -> MVar () -> IO ()
commands heapOn quit = forever $ do
  (r, s) <- allocaBytes 300 $ \buf -> do
    r <- c_next_command buf 300 200
    s <- if r > 0 then peekCString buf else return ""
    return (r, s)
  when (r > 0) $ say ("command " ++ s)
  case s of
    "eventlog-socket:3" -> writeIORef heapOn True
    "eventlog-socket:4" -> writeIORef heapOn False
    _ -> return ()
  when (r == 2) $ putMVar quit ()

-- The buffers out four times a second; a census a second while heap
-- profiling is on.
flusher :: IORef Bool -> IO ()
flusher heapOn = forM_ [0 :: Int ..] $ \i -> do
  threadDelay 250000
  on <- readIORef heapOn
  when (on && i `mod` 4 == 0) c_census
  c_flush

main :: IO ()
main = do
  args <- getArgs
  let secs = case args of
        (s : _) -> read s
        _ -> 20
  me <- myThreadId
  labelThread me "main"
  heapOn <- newIORef False
  quit <- newEmptyMVar
  _ <- spawn "commands" (commands heapOn quit)
  _ <- spawn "flusher" (flusher heapOn)
  say "started: press H for heap profiling, c for a census, h to stop"
  ref <- newIORef []
  _ <- spawn "phases" $ do
    phase secs "steady" "three workers at an even pace"
      [("steady-" ++ show k, steady k) | k <- [1 .. 3]]
    phase secs "hoard" "allocating and keeping it: the live heap grows"
      [("hoarder", hoard ref), ("steady-1", steady 1)]
    writeIORef ref []
    phase secs "gc-storm" "garbage and forced collections"
      [("storm-" ++ show k, storm k) | k <- [1 .. 2]]
    phase secs "fan-out" "waves of 3000 threads blocked on MVars and STM"
      [("fan-out", fanOut)]
    phase secs "hot" "time in fib, sortRuns and checksum"
      [("cruncher", crunch), ("steady-2", steady 2)]
    traceMarkerIO "calm"
    say "calm: all done; the program ends in a few seconds"
    threadDelay 5000000
    putMVar quit ()
  takeMVar quit
  say "exiting"
  exitSuccess

-- Demo.hs: a busy little program for evtop's screenshots: CPU-bound
-- workers (cost centres with callers), a Data.Map churner (GC and a heap
-- profile), an MVar ping-pong, STM waiters, sleepers, labelled threads,
-- user messages and markers.  Runs for the seconds given (default 6).
--
--   ghc -O -prof -fprof-auto -threaded -rtsopts -eventlog Demo.hs
--   ./Demo 6 +RTS -N4 -l -p -hc -i0.2 -RTS
module Main (main) where

import Control.Concurrent
import Control.Concurrent.STM
import Control.Exception (evaluate)
import Control.Monad
import Data.List (foldl', sort)
import qualified Data.Map.Strict as M
import Debug.Trace (traceEventIO, traceMarkerIO)
import GHC.Conc (labelThread)
import System.Environment (getArgs)

fib :: Int -> Integer
fib n = if n < 2 then toInteger n else fib (n - 1) + fib (n - 2)

crunch :: Int -> IO ()
crunch k = forever $ do
  r <- evaluate (fib (22 + k `mod` 3))
  when (r == 0) $ traceEventIO "never"

churn :: Int -> IO ()
churn i = do
  let m = foldl' (\acc x -> M.insert (x * 7919 `mod` 100003) x acc) M.empty [1 .. 60000 + i `mod` 5 * 10000]
  _ <- evaluate (M.foldl' (+) 0 m)
  when (i `mod` 2 == 0) $ traceEventIO ("churn round " ++ show i ++ ": " ++ show (M.size m) ++ " keys")
  churn (i + 1)

sorter :: Int -> IO ()
sorter i = do
  let xs = [ (x * 1103515245 + 12345) `mod` 65536 | x <- [1 .. 40000 + i `mod` 3 * 5000] ] :: [Int]
  s <- evaluate (sum (take 100 (sort xs)))
  when (i `mod` 5 == 0) $ traceEventIO ("sorter: round " ++ show i ++ ", smallest 100 sum to " ++ show s)
  sorter (i + 1)

pingpong :: MVar Int -> MVar Int -> IO ()
pingpong a b = forever $ takeMVar a >>= putMVar b . (+ 1)

sleeper :: Int -> IO ()
sleeper n = forever $ threadDelay (50000 + n * 7000)

waiter :: TVar Int -> Int -> IO ()
waiter tv n = forever $ atomically $ do
  v <- readTVar tv
  when (v `mod` 16 /= n) retry

spawn :: String -> IO () -> IO ()
spawn name act = do
  t <- forkIO act
  labelThread t name

main :: IO ()
main = do
  args <- getArgs
  let secs = case args of
        (s : _) -> read s
        _ -> 6 :: Int
  me <- myThreadId
  labelThread me "main"
  traceMarkerIO "start"
  forM_ [1 .. 2] $ \k -> spawn ("cruncher-" ++ show k) (crunch k)
  spawn "churner" (churn 0)
  spawn "sorter" (sorter 0)
  a <- newEmptyMVar
  b <- newEmptyMVar
  spawn "ping" (pingpong a b)
  spawn "pong" (forever (takeMVar b >>= putMVar a))
  putMVar a 0
  forM_ [1 .. 40] $ \n -> spawn ("sleeper-" ++ show n) (sleeper n)
  tv <- newTVarIO 0
  forM_ [0 .. 7] $ \n -> spawn ("stm-waiter-" ++ show n) (waiter tv n)
  spawn "stm-ticker" (forever (threadDelay 20000 >> atomically (modifyTVar' tv (+ 1))))
  forM_ [1 .. secs] $ \s -> do
    threadDelay 1000000
    traceMarkerIO ("second " ++ show s)
    traceEventIO ("main: " ++ show s ++ " of " ++ show secs ++ " seconds")
  traceMarkerIO "end"

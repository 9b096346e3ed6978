-- SockProg.hs: the Haskell half of the test program (see sockprog.c).
--
-- A workload that keeps the eventlog busy (threads handing an MVar back and
-- forth fill a capability's 2 MiB buffer many times a second, so GHC 9.0.2
-- writes its blocks often; a list kept alive gives the heap profile bands),
-- and a loop that takes the control commands the C side received and posts
-- each as a user message, "sockprog: command NS:ID".  "sockprog:1" makes it
-- run a major GC (so that a census asked for just before is made), post
-- "sockprog: quit" and exit cleanly; it also exits after
-- SOCKPROG_SECONDS (default 60).
--
-- Arguments: none.  Environment: see sockprog.c; SOCKPROG_CHURN=N hands the
-- token N times per millisecond burst (default 300; 0: no busy threads, a
-- quiet program).
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad
import Data.IORef
import Debug.Trace (traceEventIO)
import Foreign.C.String
import Foreign.C.Types
import Foreign.Marshal.Alloc (allocaBytes)
import System.Environment (lookupEnv)
import System.Exit
import System.IO
import System.Mem (performMajorGC)

foreign import ccall safe "sockprog_next_command"
  c_next_command :: CString -> CInt -> CInt -> IO CInt
foreign import ccall safe "sockprog_late_start"
  c_late_start :: IO ()

-- Two threads handing a token back and forth, in bursts.
churn :: Int -> IO ()
churn size = do
  a <- newEmptyMVar
  b <- newEmptyMVar
  _ <- forkIO $ forever $ takeMVar a >>= putMVar b
  let burst :: Int -> IO ()
      burst 0 = return ()
      burst n = putMVar a n >> takeMVar b >> burst (n - 1)
  forever $ burst size >> threadDelay 1000

-- Live data that changes: the heap profile has something to show.
heapWork :: IORef [[Int]] -> IO ()
heapWork ref = forM_ [1 ..] $ \i -> do
  let xs = [i .. i + 2000]
  _ <- evaluate (sum xs)
  modifyIORef' ref (\l -> take 200 (xs : l))
  l <- readIORef ref
  _ <- evaluate (length (concat l))
  threadDelay 2000

main :: IO ()
main = do
  hSetBuffering stdout LineBuffering
  c_late_start
  secs <- maybe 60 read <$> lookupEnv "SOCKPROG_SECONDS" :: IO Int
  size <- maybe 300 read <$> lookupEnv "SOCKPROG_CHURN" :: IO Int
  when (size > 0) $ void (forkIO (churn size))
  ref <- newIORef []
  _ <- forkIO (heapWork ref)
  traceEventIO "sockprog: started"
  done <- newEmptyMVar
  _ <- forkIO $ threadDelay (secs * 1000000) >> putMVar done ()
  let loop = do
        timedOut <- not <$> isEmptyMVar done
        if timedOut
          then traceEventIO "sockprog: time is up"
          else do
            r <- allocaBytes 300 $ \buf -> do
              r <- c_next_command buf 300 100
              s <- if r > 0 then peekCString buf else return ""
              return (r, s)
            case r of
              (0, _) -> loop
              (2, s) -> do
                traceEventIO ("sockprog: command " ++ s)
                -- A census asked for just before happens at a GC.
                performMajorGC
                traceEventIO "sockprog: quit"
              (_, s) -> do
                traceEventIO ("sockprog: command " ++ s)
                putStrLn ("command " ++ s)
                loop
  loop
  exitSuccess

-- busy.hs: the program `make bench` records its benchmark eventlog from: a
-- busy concurrent program whose log is mostly scheduler events, as real
-- servers' are (not GC events from two capabilities).  Pairs of threads
-- pass Ints through MVars; rings of threads pass a token through TVars,
-- each blocking in STM (retry) until the token is its own; both allocate
-- a little, so the log has GCs too.  forkIO, not forkOn: the scheduler
-- migrates the threads between capabilities.
--
--   busy ROUNDS +RTS -N2 -l -olFILE
import Control.Concurrent
import Control.Concurrent.STM
import Control.Monad
import System.Environment (getArgs)

pairs, rings, ringSize :: Int
pairs = 24
rings = 4
ringSize = 8

-- Some allocation per step, kept alive just long enough.
work :: Int -> Int
work k = sum (map (* 3) [1 .. k `mod` 40])

pingPong :: Int -> MVar () -> IO ()
pingPong rounds done = do
  a <- newEmptyMVar
  b <- newEmptyMVar
  _ <- forkIO $ replicateM_ rounds $ takeMVar a >>= \x -> putMVar b $! work x
  _ <- forkIO $ do
    forM_ [1 .. rounds] $ \i -> putMVar a i >> takeMVar b
    putMVar done ()
  return ()

-- A token goes round: member i waits for it in its TVar, passes it on.
ring :: Int -> MVar () -> IO ()
ring rounds done = do
  tvs <- replicateM ringSize (newTVarIO Nothing)
  let member i = replicateM_ rounds $ do
        k <- atomically $ do
          v <- readTVar (tvs !! i)
          case v of
            Nothing -> retry
            Just k -> writeTVar (tvs !! i) Nothing >> return k
        let k' = work k + 1
        k' `seq` atomically (writeTVar (tvs !! ((i + 1) `mod` ringSize)) (Just k'))
  forM_ [1 .. ringSize - 1] $ \i -> forkIO (member i)
  _ <- forkIO $ do
    atomically $ writeTVar (head tvs) (Just 0)
    member 0
    putMVar done ()
  return ()

main :: IO ()
main = do
  [r] <- map read <$> getArgs
  done <- newEmptyMVar
  replicateM_ pairs (pingPong r done)
  replicateM_ rings (ring (r `div` 2) done)
  replicateM_ (pairs + rings) (takeMVar done)

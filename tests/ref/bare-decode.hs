{-# LANGUAGE BangPatterns #-}
-- bare-decode.hs: the Haskell ghc-events library's bare decode, the
-- baseline of the model issue's speed target ("10 times faster than the
-- Haskell decoder's bare decode, which aggregates nothing").  It reads a
-- log, forces each event's time and spec, and prints how many there were
-- and the sum of their times (so that nothing can be skipped).
--
--   bare-decode FILE
import Data.List (foldl')
import GHC.RTS.Events
import System.Environment (getArgs)
import System.Exit (die)

main :: IO ()
main = do
  args <- getArgs
  path <- case args of
    [p] -> return p
    _ -> die "usage: bare-decode FILE"
  r <- readEventLogFromFile path
  case r of
    Left e -> die e
    Right (EventLog _ (Data evs)) -> do
      let step (!n, !t) e = evSpec e `seq` (n + 1 :: Int, t + evTime e)
          (n, t) = foldl' step (0, 0) evs
      putStrLn (show n ++ " events, times summing to " ++ show t)

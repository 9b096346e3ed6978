{-# LANGUAGE BangPatterns #-}
-- incremental-decode.hs: the Haskell ghc-events library's incremental
-- decoder (GHC.RTS.Events.Incremental), the baseline of the reader issue's
-- speed target.  It reads a log lazily, in file order (no sort), forces
-- each event's time and spec, and prints how many there were and the sum
-- of their times (so that nothing can be skipped).
--
--   incremental-decode FILE
import qualified Data.ByteString.Lazy as BL
import Data.List (foldl')
import GHC.RTS.Events (evSpec, evTime)
import GHC.RTS.Events.Incremental (readHeader, readEvents)
import System.Environment (getArgs)
import System.Exit (die)

main :: IO ()
main = do
  args <- getArgs
  path <- case args of
    [p] -> return p
    _ -> die "usage: incremental-decode FILE"
  bytes <- BL.readFile path
  case readHeader bytes of
    Left e -> die e
    Right (hdr, rest) -> do
      -- The error is not looked at: holding it would hold every event.
      let evs = fst (readEvents hdr rest)
          step (!n, !t) e = evSpec e `seq` (n + 1 :: Int, t + evTime e)
          (n, t) = foldl' step (0, 0) evs
      putStrLn (show n ++ " events, times summing to " ++ show t)

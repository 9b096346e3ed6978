-- ghcevents-show.hs: print an eventlog exactly as ghc-events 0.17's
-- `ghc-events show FILE` does, using the library's own printer.
--
-- Usage: ghcevents-show FILE
--
-- Same steps as the `show` command of ghc-events 0.17.0.3 (GhcEvents.hs):
-- readEventLogFromFile, on failure print "Failed to parse FILE: ERROR" to
-- stderr and exit 1, otherwise `putStrLn (ppEventLog log)`:
--   "Event Types:" and one line per declared type, a blank line,
--   "Events:" and one line per event, sorted by time (stable), then the
--   blank line that putStrLn adds after ppEventLog's final newline.
-- The only difference: stdout is always UTF-8 here, whatever the locale
-- (`ghc-events show` uses the locale's encoding and dies on non-ASCII text
-- under LANG=C); under a UTF-8 locale both print the same bytes.
-- Note: 0.17 silently stops at a truncated event (no error), prints no
-- block markers, and throws (exit 1, after printing the events before it)
-- on a USER_BINARY_MSG whose payload is not UTF-8.
module Main (main) where

import GHC.RTS.Events (ppEventLog, readEventLogFromFile)
import System.Environment (getArgs)
import System.Exit (exitWith, ExitCode (..))
import System.IO

main :: IO ()
main = do
  args <- getArgs
  case args of
    [file] -> do
      hSetEncoding stdout utf8
      hSetEncoding stderr utf8
      e <- readEventLogFromFile file
      case e of
        Left s -> do
          hPutStrLn stderr ("Failed to parse " ++ file ++ ": " ++ s)
          exitWith (ExitFailure 1)
        Right evlog -> putStrLn (ppEventLog evlog)
    _ -> do
      hPutStrLn stderr "usage: ghcevents-show FILE"
      exitWith (ExitFailure 2)

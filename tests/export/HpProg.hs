-- HpProg.hs: a program whose heap grows and shrinks in several cost
-- centres and closure types, for tests/export/rtshp.sh: the RTS writes its
-- own .hp and the eventlog in the same run.
import qualified Data.Map.Strict as M
import Data.List (foldl')

build :: Int -> M.Map Int [Int]
build n = foldl' (\m k -> M.insert k [k, k + 1, k + 2] m) M.empty [1 .. n]

strings :: Int -> [String]
strings n = [show k | k <- [1 .. n]]

main :: IO ()
main = do
  ms <- mapM (\i -> let m = build (i * 30000) in M.size m `seq` return m) [1 .. 5]
  print (sum (map M.size ms))
  let xs = strings 200000
  print (length (concat xs))
  print (sum (map (sum . concat . M.elems) ms))

# Golden: `evtop --batch` (through tests/model/batch_driver until evtop.c
# dispatches --batch) on every fixture and corpus log, against the files
# here and the independent NAME.figures.json.  `make golden-regen` rewrites
# the files: review the diff before committing.
GOLDEN_DRIVER ?= build/tests/batch_driver

check-golden: $(GOLDEN_DRIVER)
	tests/golden/golden.sh $(GOLDEN_DRIVER) $(CORPUS)

golden-regen: $(GOLDEN_DRIVER)
	tests/golden/golden.sh -r $(GOLDEN_DRIVER) $(CORPUS)

CHECKS += check-golden
.PHONY: check-golden golden-regen

# --from/--to against ghc-events' figures for the same ranges.
check-ranges: evtop
	tests/golden/ranges.sh ./evtop $(CORPUS)

CHECKS += check-ranges
.PHONY: check-ranges

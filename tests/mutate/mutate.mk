# Mutation testing: `make mutate` applies each mutant of
# tests/mutate/mutants.txt alone to a copy of the tree (build/mutate/tree)
# and runs the tests (quick targets first, then `make check` for what
# survives them); it prints each survivor and the score.  Too slow for
# `make check`, which only checks that every mutant still applies.
# MUTANTS="id ..." runs some; MUTATE_FLAGS=--quick stops at the quick tier.
MUTANTS ?=
MUTATE_FLAGS ?=

mutate:
	python3 tests/mutate/mutate.py $(MUTATE_FLAGS) $(MUTANTS)

# (Not in a mutated copy, where the mutant's own line is gone: there it
# would fail every `make check` whatever the other tests say.)
check-mutants:
	@[ -n "$(MUTANT_TREE)" ] || python3 tests/mutate/mutate.py --check

CHECKS += check-mutants
.PHONY: mutate check-mutants

# The layout: calls go one way between layers (proto/ < src/ < ui/) and
# within each module (no circles): tests/layout/calls.py.
check-calls:
	@python3 tests/layout/calls.py

CHECKS += check-calls
.PHONY: check-calls

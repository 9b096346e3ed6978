# tests/export: profiles out (--folded, --speedscope, --hp and the E key),
# their values against independent counts (`evtop show`, --batch --json),
# the files against their readers: hp2ps, speedscope's published schema
# and speedscope itself in headless chromium (npm's speedscope, installed
# into build/npm on first use).  Parts whose tools are missing say SKIPPED.
check-export: evtop
	tests/export/export.sh

CHECKS += check-export
.PHONY: check-export

# tests/serve: what evtop serves to others (serve.h).
#
#   check-serve-metrics	--metrics by value against --batch --json on every
#			fixture, promtool check metrics (SKIPPED without
#			promtool), OpenMetrics, and the HTTP server's manners
#   check-serve-prometheus  a real prometheus on loopback scrapes evtop
#			(SKIPPED without prometheus)
#   check-serve-relay	--serve/--serve-tcp: clients from the start, a late
#			joiner, a stalled client dropped, socket mode and
#			removal, control commands to tests/sockprog

check-serve-metrics: evtop
	python3 tests/serve/t_metrics.py ./evtop $(sort $(wildcard tests/fixtures/*.eventlog))

check-serve-prometheus: evtop
	python3 tests/serve/t_prometheus.py ./evtop tests/fixtures/gc.eventlog

# By name: $(SOCKPROG) is set in tests/sources/sources.mk, read after this
# file, and a prerequisite is expanded as it is read (it was empty here,
# so that alone this target never built sockprog and skipped its tests).
check-serve-relay: evtop build/bench/mklog build/tests/sockprog/sockprog
	tests/serve/relay.sh ./evtop build/bench/mklog $(SOCKPROG)

CHECKS += check-serve-metrics check-serve-prometheus check-serve-relay
.PHONY: check-serve-metrics check-serve-prometheus check-serve-relay

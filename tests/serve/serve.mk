# tests/serve: what evtop serves to others (serve.h).
#
#   check-serve-metrics	--metrics by value against --batch --json on every
#			fixture, promtool check metrics (SKIPPED without
#			promtool), OpenMetrics, and the HTTP server's manners
#   check-serve-prometheus  a real prometheus on loopback scrapes evtop
#			(SKIPPED without prometheus)

check-serve-metrics: evtop
	python3 tests/serve/t_metrics.py ./evtop $(sort $(wildcard tests/fixtures/*.eventlog))

check-serve-prometheus: evtop
	python3 tests/serve/t_prometheus.py ./evtop tests/fixtures/gc.eventlog

CHECKS += check-serve-metrics check-serve-prometheus
.PHONY: check-serve-metrics check-serve-prometheus

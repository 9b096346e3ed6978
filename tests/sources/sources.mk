# tests/sources: live sources, control commands, recording, the loop.
#
#   check-sources	unit tests (no model, no terminal), then the end-to-end
#			tests with a fake producer and with real GHC programs
#   bench-sources	sustained input rate from a Unix socket, model on

SRCT_DIR := build/tests/sources
# The units link only what they test: proto/ and the source files.
SRCT_UNIT_OBJ := $(PROTO_OBJ) build/src/source.o build/src/source-unix.o \
	build/src/source-tcp.o build/src/source-fifo.o build/src/source-stdin.o \
	build/src/control.o build/src/record.o

$(SRCT_DIR)/t-units: $(SRCT_DIR)/t-units.o $(SRCT_UNIT_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

check-sources-units: $(SRCT_DIR)/t-units
	$(SRCT_DIR)/t-units

CHECKS += check-sources-units
.PHONY: check-sources-units

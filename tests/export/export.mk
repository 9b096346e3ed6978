# tests/export: profiles out (--folded, --speedscope, --hp and the E key).
#   t_export	the census history's bounds, evicted bands, samples by
#		capability, the key's window, on hand-made events (and the
#		same under ASan and UBSan)
#   rtshp.sh	--hp against the .hp the RTS writes in the same run
#   export.sh	the fixtures' exports against independent counts (`evtop
#		show`, --batch --json) and their readers: hp2ps, speedscope's
#		published schema, speedscope itself in headless chromium
#		(npm's speedscope, installed into build/npm on first use),
#		and the key in tmux.  Parts whose tools are missing say SKIPPED.
build/tests/t_export: tests/export/t_export.c $(CORE_OBJ)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -o $@ $^ $(LDLIBS)

build/san/t_export: tests/export/t_export.c $(ASAN_CORE)
	@mkdir -p $(@D)
	$(SAN_CC) $(CPPFLAGS) -O1 -g $(ASAN) -o $@ $^ $(LDLIBS)

check-export: evtop build/tests/t_export build/san/t_export
	@build/tests/t_export
	@echo "ASan/UBSan: $$(build/san/t_export)"
	tests/export/export.sh
	tests/export/rtshp.sh ./evtop

CHECKS += check-export
.PHONY: check-export

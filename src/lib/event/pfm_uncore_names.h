/* {libpfm4 uncore table, perf's name, libpfm4's name} of the same encoding,
 * where the spelling differs beyond '.' for ':' and the unit's prefix
 * (pfm_uncore.c's units[]). Found by comparing perf 6.1's attrs with
 * libpfm4 4.13's codes; tests/data/vendor/uncore.tsv holds each. */
{"amd64_fam19h_zen3_l3", "l3_lookup_state.all_l3_req_typs", "UNC_L3_REQUESTS:ALL"},
{"amd64_fam19h_zen3_l3", "l3_cache_accesses", "UNC_L3_REQUESTS:ALL"},
{"amd64_fam19h_zen3_l3", "xi_ccx_sdp_req1", "UNC_L3_MISSES:ALL"},
{"skx_unc_imc", "llc_misses.mem_read", "UNC_M_CAS_COUNT:RD"},
{"skx_unc_imc", "llc_misses.mem_write", "UNC_M_CAS_COUNT:WR"},

/* Fuzz target: probe strings (u:PATH:SYMBOL[+OFF][%return], k:...) taken apart. */
#include "perfev.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	struct perfev_probe_spec spec;
	if (perfev_probe_spec_parse(s, &spec) == 0) {
		/* what was parsed fits its fields and is terminated */
		if (strlen(spec.symbol) >= sizeof(spec.symbol) || strlen(spec.path) >= sizeof(spec.path))
			abort();
	}
	free(s);
	return 0;
}

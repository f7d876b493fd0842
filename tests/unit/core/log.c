/* The one log hook (perfev/log.h): the profile loader's notes go to it, once
 * per message, and nowhere without it. */
#include "support.h"

#include <perfev.h>

#include <stdlib.h>
#include <string.h>

struct seen {
	char text[8192];
	size_t notes, warnings;
};

static void collect(void *ctx, enum perfev_log_level level, const char *msg)
{
	struct seen *s = ctx;
	if (level == PERFEV_LOG_NOTE)
		s->notes++;
	else if (level == PERFEV_LOG_WARN)
		s->warnings++;
	size_t n = strlen(s->text);
	snprintf(s->text + n, sizeof(s->text) - n, "%s\n", msg);
}

static void load(const char *file)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, file);
	struct perfev_profile_load_opts o = {.sz = sizeof(o), .no_cache = true};
	struct perfev_profile *p = perfev_profile_load(path, &o, NULL);
	cr_assert_not_null(p, "%s", perfev_errmsg());
	perfev_profile_free(p);
}

Test(unit_log, profile_load_notes_go_to_the_hook, .timeout = 60)
{
	require_corpus();
	struct seen s = {.text = ""};
	void *old_ctx = (void *)1;
	perfev_log_fn old = perfev_set_log(collect, &s, PERFEV_LOG_NOTE, &old_ctx);
	cr_assert_null(old);
	cr_assert_null(old_ctx);
	load("perf.data.intel_pt-4.14");
	cr_assert(strstr(s.text, "holds 0.1 MB of Intel PT trace, which perfev does not decode: this report "
				 "shows the sampled events only"), "%s", s.text);
	/* a 4.14 recording is another kernel's: its addresses stay unresolved */
	cr_assert(strstr(s.text, "was recorded on another kernel ("), "%s", s.text);
	cr_assert_geq(s.notes, 2);
	cr_assert_eq(s.text[strlen(s.text) - 2] == '\n', false, "no trailing newline in a message");

	/* the level: WARN only drops notes */
	struct seen w = {.text = ""};
	cr_assert_eq(perfev_set_log(collect, &w, PERFEV_LOG_WARN, &old_ctx), collect);
	cr_assert_eq(old_ctx, &s);
	load("perf.data.intel_pt-4.14");
	cr_assert_eq(w.notes, 0, "%s", w.text);

	/* no hook: nothing is called (s stays as it was) */
	size_t before = s.notes;
	perfev_set_log(NULL, NULL, PERFEV_LOG_NOTE, NULL);
	load("perf.data.intel_pt-4.14");
	cr_assert_eq(s.notes, before);
}

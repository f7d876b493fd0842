/* support_records.h — helpers of the records tests: comparing perfev script
 * with perf script, listing the corpus. */
#ifndef PERFEV_TEST_SUPPORT_RECORDS_H
#define PERFEV_TEST_SUPPORT_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

/* The perf.data files of the corpus, sorted; NULL-terminated (caller frees with free_list). */
char **corpus_files(size_t *nr);
void free_list(char **list);

/* perf script's time of file's n-th sample ("1234.567890", malloc'ed), for --time ranges. */
char *perf_sample_time(const char *file, int n);

/*
 * Runs `perf script -F fields` and `perfev script -F fields` (fields may
 * carry more options after the list; NULL: no -F, the default fields) on file and asserts the outputs are equal line for line;
 * where perf fails, asserts perfev fails too with a message on stderr.
 * Returns false when perfev refused a file perf reads because it holds an
 * AUX area trace (documented: perfev does not decode Intel PT).
 */
bool compare_script(const char *file, const char *fields);
/* The same with both outputs piped through `filter` (a shell pipeline stage). */
bool compare_script_filtered(const char *file, const char *fields, const char *filter);
/* The same with perf script's command-line arguments as given ("-F ip --tid 5"). */
bool compare_script_args(const char *file, const char *args, const char *filter);
/* compare_script for --call-graph dwarf recordings: a sample where perf's
 * libdwfl unwound a zero return address (its "ffffffffffffffff [unknown]"
 * frame) is left out of both outputs (at most 1 + 1 in 50 samples). */
bool compare_script_unwound(const char *file, const char *fields);

#endif

/* debuginfod_dl.c — libdebuginfod through dlopen (see debuginfod_dl.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <elfutils/debuginfod.h>

debuginfod_client *pv_debuginfod_begin(void);
void pv_debuginfod_end(debuginfod_client *client);
int pv_debuginfod_find_executable(debuginfod_client *, const unsigned char *, int, char **);
int pv_debuginfod_find_debuginfo(debuginfod_client *, const unsigned char *, int, char **);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static __typeof__(debuginfod_begin) *p_begin;
static __typeof__(debuginfod_end) *p_end;
static __typeof__(debuginfod_find_executable) *p_find_executable;
static __typeof__(debuginfod_find_debuginfo) *p_find_debuginfo;

static void load(void)
{
	void *lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return;
	p_end = (__typeof__(p_end))dlsym(lib, "debuginfod_end");
	p_find_executable = (__typeof__(p_find_executable))dlsym(lib, "debuginfod_find_executable");
	p_find_debuginfo = (__typeof__(p_find_debuginfo))dlsym(lib, "debuginfod_find_debuginfo");
	/* begin last: it is what says the others are there */
	if (p_end && p_find_executable && p_find_debuginfo)
		p_begin = (__typeof__(p_begin))dlsym(lib, "debuginfod_begin");
}

debuginfod_client *pv_debuginfod_begin(void)
{
	pthread_once(&once, load);
	return p_begin ? p_begin() : NULL;
}

void pv_debuginfod_end(debuginfod_client *c)
{
	pthread_once(&once, load);
	if (c && p_end)
		p_end(c);
}

int pv_debuginfod_find_executable(debuginfod_client *c, const unsigned char *id, int len, char **path)
{
	pthread_once(&once, load);
	return p_begin ? p_find_executable(c, id, len, path) : -ENOSYS;
}

int pv_debuginfod_find_debuginfo(debuginfod_client *c, const unsigned char *id, int len, char **path)
{
	pthread_once(&once, load);
	return p_begin ? p_find_debuginfo(c, id, len, path) : -ENOSYS;
}

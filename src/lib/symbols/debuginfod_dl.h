/*
 * debuginfod_dl.h — libdebuginfod, loaded on first use. Linked normally it
 * brings curl, gnutls, krb5, ldap... (about 30 libraries, several ms of
 * start-up for every perfev command); it is needed only when
 * DEBUGINFOD_URLS is set. Include this instead of <elfutils/debuginfod.h>:
 * the four calls perfev makes keep their names and go through dlopen.
 */
#ifndef PERFEV_DEBUGINFOD_DL_H
#define PERFEV_DEBUGINFOD_DL_H

#include <elfutils/debuginfod.h>

/* NULL when libdebuginfod.so.1 cannot be loaded (as if unconfigured). */
debuginfod_client *pv_debuginfod_begin(void);
void pv_debuginfod_end(debuginfod_client *client);
/* -ENOSYS when the library is not loaded. */
int pv_debuginfod_find_executable(debuginfod_client *client, const unsigned char *build_id,
				  int build_id_len, char **path);
int pv_debuginfod_find_debuginfo(debuginfod_client *client, const unsigned char *build_id,
				 int build_id_len, char **path);

#define debuginfod_begin pv_debuginfod_begin
#define debuginfod_end pv_debuginfod_end
#define debuginfod_find_executable pv_debuginfod_find_executable
#define debuginfod_find_debuginfo pv_debuginfod_find_debuginfo

#endif

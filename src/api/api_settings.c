/* The public settings object (include/shardlp.h): a thin handle on the run layer's
 * options, set and read through the option table. */
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "run/option_table.h"

shardlp_error shardlp_settings_create(shardlp_settings **out)
{
    slp_error_clear();
    if (!out)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_settings_create: out is NULL"));
    *out = slp_calloc(1, sizeof **out);
    if (!*out)
        return slp_api_code(slp_error(SLP_ERR_NOMEM, "out of memory"));
    slp_api_default_options(&(*out)->opt);
    return SHARDLP_OK;
}

void shardlp_settings_destroy(shardlp_settings **settings)
{
    if (!settings || !*settings)
        return;
    slp_run_options_free(&(*settings)->opt);
    free(*settings);
    *settings = NULL;
}

shardlp_error shardlp_set_option(shardlp_settings *settings, const char *name, const char *value)
{
    slp_error_clear();
    if (!settings)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_set_option: settings is NULL"));
    const slp_option_t *opt = slp_option_find(name);
    if (opt && opt->type == SLP_OPT_PATH &&
        opt->offset == offsetof(slp_run_options_t, model_path))
        return slp_api_code(slp_error(SLP_ERR_INPUT, "option %s is for the command line; the "
                                      "C API takes the model as an argument", name));
    /* On failure the option keeps its value: set a copy, keep it only when it worked. */
    slp_run_options_t trial;
    slp_err rc = slp_run_options_copy(&settings->opt, &trial);
    if (rc != SLP_OK)
        return slp_api_code(rc);
    rc = slp_option_set(&trial, name, value);
    if (rc == SLP_OK) {
        slp_run_options_free(&settings->opt);
        settings->opt = trial;
    } else {
        slp_run_options_free(&trial);
    }
    return slp_api_code(rc);
}

shardlp_error shardlp_get_option(const shardlp_settings *settings, const char *name, char *buf,
                                 int64_t size)
{
    slp_error_clear();
    if (!settings || !buf || size < 1)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_get_option: NULL argument"));
    return slp_api_code(slp_option_get(&settings->opt, name, buf, (size_t)size));
}

int shardlp_option_count(void)
{
    int count = 0;
    slp_option_table(&count);
    return count;
}

const char *shardlp_option_name(int k)
{
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    return k >= 0 && k < count ? t[k].name : NULL;
}

const char *shardlp_option_kind(int k)
{
    static const char *const kinds[] = {
        [SLP_OPT_REAL] = "real",   [SLP_OPT_INT] = "integer", [SLP_OPT_INT64] = "integer",
        [SLP_OPT_BOOL] = "bool",   [SLP_OPT_CHOICE] = "choice", [SLP_OPT_GRID] = "grid",
        [SLP_OPT_PATH] = "path",   [SLP_OPT_FLAG] = "flag",     [SLP_OPT_FILE] = "file",
    };
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    return k >= 0 && k < count ? kinds[t[k].type] : NULL;
}

const char *shardlp_option_help(int k)
{
    int count = 0;
    const slp_option_t *t = slp_option_table(&count);
    return k >= 0 && k < count ? t[k].help : NULL;
}

shardlp_error shardlp_set_progress_callback(shardlp_settings *settings,
                                            shardlp_progress_callback fn, void *user)
{
    slp_error_clear();
    if (!settings)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_set_progress_callback: settings "
                                      "is NULL"));
    settings->progress = fn;
    settings->progress_user = fn ? user : NULL;
    return SHARDLP_OK;
}

shardlp_error shardlp_set_log_callback(shardlp_settings *settings, shardlp_log_callback fn,
                                       void *user)
{
    slp_error_clear();
    if (!settings)
        return slp_api_code(slp_error(SLP_ERR_INPUT, "shardlp_set_log_callback: settings is "
                                      "NULL"));
    settings->log = fn;
    settings->log_user = fn ? user : NULL;
    return SHARDLP_OK;
}

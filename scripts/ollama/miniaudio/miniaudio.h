/*
 * Stub of miniaudio.h for building the Ollama server from the Go module proxy.
 *
 * The module zip of github.com/ollama/ollama leaves out llama.cpp's vendor/
 * headers. miniaudio is used only by the mtmd helper to decode audio input of
 * multimodal models, which toolsearch never sends, so this stub declares just
 * the types and ma_decoder_* functions mtmd-helper.cpp calls, and every one of
 * them fails with MA_ERROR. Image input (stb_image) and text are unaffected.
 *
 * mtmd-helper.cpp defines MA_API as "static" before including this file, so
 * the functions are defined here, static inline, rather than only declared.
 */
#ifndef TOOLSEARCH_MINIAUDIO_STUB_H
#define TOOLSEARCH_MINIAUDIO_STUB_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t ma_uint32;
typedef uint64_t ma_uint64;
typedef int ma_result;

#define MA_SUCCESS 0
#define MA_ERROR (-1)

typedef enum {
    ma_format_unknown = 0,
    ma_format_u8 = 1,
    ma_format_s16 = 2,
    ma_format_s24 = 3,
    ma_format_s32 = 4,
    ma_format_f32 = 5
} ma_format;

typedef struct {
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_decoder_config;

typedef struct {
    int unused;
} ma_decoder;

static inline ma_decoder_config ma_decoder_config_init(ma_format format, ma_uint32 channels, ma_uint32 sampleRate) {
    ma_decoder_config c;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sampleRate;
    return c;
}

static inline ma_result ma_decoder_init_memory(const void *data, size_t size, const ma_decoder_config *config, ma_decoder *decoder) {
    (void)data; (void)size; (void)config;
    if (decoder != NULL) {
        decoder->unused = 0;
    }
    return MA_ERROR;
}

static inline ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *decoder, ma_uint64 *length) {
    (void)decoder;
    if (length != NULL) {
        *length = 0;
    }
    return MA_ERROR;
}

static inline ma_result ma_decoder_read_pcm_frames(ma_decoder *decoder, void *frames_out, ma_uint64 frame_count, ma_uint64 *frames_read) {
    (void)decoder; (void)frames_out; (void)frame_count;
    if (frames_read != NULL) {
        *frames_read = 0;
    }
    return MA_ERROR;
}

static inline ma_result ma_decoder_uninit(ma_decoder *decoder) {
    (void)decoder;
    return MA_SUCCESS;
}

#endif /* TOOLSEARCH_MINIAUDIO_STUB_H */

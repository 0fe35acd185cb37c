// libxml2 is built with ICU on Debian, and its encoding.h then includes ICU's headers, which clash
// with the copy Foundation's module carries. We never touch xmlCharEncodingHandler (the only type
// whose layout ICU changes), so hide ICU from the headers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

// libxml2 prints some errors (an encoder failing on undecodable input, say) straight to stderr
// through its generic error function, raw input lines included. Readers report errors themselves:
// this makes the calling thread's generic error function a no-op (Swift cannot write a variadic C
// function).
static void speakeasy_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline void speakeasy_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, speakeasy_ignore_generic_error);
}

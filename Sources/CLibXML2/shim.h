// libxml2 is built with ICU on Debian, and its encoding.h then includes ICU's headers, which clash
// with the copy Foundation's module carries. We never touch xmlCharEncodingHandler (the only type
// whose layout ICU changes), so hide ICU from the headers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/xmlwriter.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

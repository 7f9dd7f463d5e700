// libxml2's SAX2 push parser, for CofferFormats' camt reader (CamtSAXParser.swift). The include path comes from
// pkg-config (libxml-2.0: -I/usr/include/libxml2 on Debian); libxml2-dev provides both.
//
// Debian builds libxml2 with ICU, so its encoding.h would include the system's <unicode/ucnv.h>. Foundation brings
// its own ICU (module _FoundationICU) with other definitions of the same types, and clang then refuses the two
// modules together ("'U_…' from module '_FoundationICU' is not present in definition of 'enum UErrorCode' in module
// 'CLibXML2'"), depending on which module a compilation loads first. Nothing here needs ICU: the ICU-only fields sit
// at the end of xmlCharEncodingHandler, which Coffer only ever holds by pointer, so leaving them out of view changes
// no layout Coffer reads.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/dict.h>

// libxml2's SAX2 push parser, for CofferFormats' camt reader (CamtSAXParser.swift). The include path comes from
// pkg-config (libxml-2.0: -I/usr/include/libxml2 on Debian); libxml2-dev provides both.
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/dict.h>

/* status.c - status codes as sentences. */
#include "swf.h"

const char *swf_status_string(swf_status status)
{
	switch (status) {
	case SWF_OK:
		return "Success.";
	case SWF_E_INVALID:
		return "An argument is outside its allowed range.";
	case SWF_E_NOMEM:
		return "Memory could not be allocated.";
	case SWF_E_MALFORMED:
		return "The symbol or its payload ID is malformed.";
	case SWF_E_RANGE:
		return "The ESI is too far from the decoder's window.";
	}
	return "Unknown status.";
}

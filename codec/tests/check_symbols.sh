#!/bin/sh
# check_symbols.sh LIBRARY - proves that every symbol libswf defines for the
# linker carries the swf_ prefix, so the library can be linked into any
# program without clashing with its names.
set -eu
# AddressSanitizer adds an ODR indicator, __odr_asan.NAME, for each global.
bad=$(nm -g --defined-only "$1" |
	awk 'NF == 3 { name = $3; sub(/^__odr_asan\./, "", name); if (name !~ /^swf_/) print $3 }')
if [ -n "$bad" ]; then
	echo "$1 exports symbols without the swf_ prefix:" >&2
	echo "$bad" >&2
	exit 1
fi
echo "every exported symbol of $1 starts with swf_"

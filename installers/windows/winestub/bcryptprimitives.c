/*
 * A stand-in for Windows' bcryptprimitives.dll, for tests under Wine only.
 * Go 1.22 and later get random bytes from ProcessPrng in this DLL, which
 * Debian 12's Wine 8 lacks, so Go programs die at start-up there. This
 * stub serves ProcessPrng from RtlGenRandom (advapi32's SystemFunction036).
 * It is never shipped in an installer.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, chunk))
			return FALSE;
		data += chunk;
		length -= chunk;
	}
	return TRUE;
}

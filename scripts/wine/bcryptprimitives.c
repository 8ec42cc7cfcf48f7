/* Test-only stand-in for Windows' bcryptprimitives.dll under Wine 8, which lacks ProcessPrng.
 *
 * Rust's standard library on Windows 10+ imports ProcessPrng (its random source, e.g. for
 * HashMap keys); Wine 8's bcryptprimitives.dll does not export it, so tsumugi.exe fails to load.
 * scripts/test-windows builds this DLL with mingw and puts it next to the exe in a test folder,
 * where Windows' loader (and Wine's) finds it first. It is never shipped: real Windows has the
 * function, and dist/ holds only tsumugi.exe.
 *
 * Build: x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c \
 *          bcryptprimitives.def -ladvapi32
 */
#include <windows.h>

/* RtlGenRandom, exported by advapi32 as SystemFunction036. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}

import { closeSync, constants, fchmodSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { SledgeError } from '@sledge/protocol';

/**
 * Write a file the CLI downloads for the user (`sledge report -o`,
 * `sledge artifact -o`): owner-only (0600, an existing file is made 0600 too)
 * and never through a symbolic link at the name (O_NOFOLLOW: the link and its
 * target stay as they were and the command fails naming `field`).
 */
export function writeOwnerFile(file: string, text: string, field: string): void {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new SledgeError('SLEDGE_E_VALIDATION', `${file} is a symbolic link: sledge does not write through it (remove it, or choose another file)`, { field });
    throw new SledgeError('SLEDGE_E_VALIDATION', `cannot write ${file}: ${(e as Error).message}`, { field });
  }
  try {
    // Made private and emptied only once it is known to be a file of its own (not truncated through a link).
    fchmodSync(fd, 0o600);
    ftruncateSync(fd, 0);
    const bytes = Buffer.from(text, 'utf8');
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
  } catch (e) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `cannot write ${file}: ${(e as Error).message}`, { field });
  } finally {
    closeSync(fd);
  }
}

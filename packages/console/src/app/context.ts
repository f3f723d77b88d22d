import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { AdminClient } from './api.ts';
import type { Session } from './session.ts';

export interface ConfirmRequest {
  title: string;
  body: string;
  /** The button that confirms, named for what it does ("Pause sending"). */
  action: string;
  danger?: boolean;
}

export interface Console {
  session: Session;
  /** The key can make changes (not read-only as far as the console knows). */
  canWrite: boolean;
  /** A write answered 403: the key is read-only after all. */
  markReadOnly(): void;
  confirm(request: ConfirmRequest): Promise<boolean>;
  signOut(): void;
}

export const ConsoleContext = createContext<Console | null>(null);

export function useConsole(): Console {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}

export const useClient = (): AdminClient => useConsole().session.client;

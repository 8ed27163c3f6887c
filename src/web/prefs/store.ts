import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * The user's UI preferences for this tab: whether the transcript panel is open and whether the
 * guide speaks aloud. Only preferences live here; the session and its progress live in the page
 * machine. `captionsOpen` is null until the user touches it, so the session's default applies.
 */
export interface Prefs {
  captionsOpen: boolean | null;
  voiceOn: boolean;
  setCaptionsOpen(open: boolean): void;
  setVoiceOn(on: boolean): void;
}

export const usePrefs = create<Prefs>()(
  persist(
    (set) => ({
      captionsOpen: null,
      voiceOn: true,
      setCaptionsOpen: (captionsOpen) => set({ captionsOpen }),
      setVoiceOn: (voiceOn) => set({ voiceOn }),
    }),
    {
      name: 'idv.prefs',
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ captionsOpen, voiceOn }) => ({ captionsOpen, voiceOn }),
    },
  ),
);

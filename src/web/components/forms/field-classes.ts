// How a setting's label and its field's message look, for the settings' controls wherever they
// are shown (the generator's settings, the editor's).

export const LABEL_CLASS_NAME = "mb-1.5 block text-sm font-medium text-slate-800";
export const FIELD_MESSAGE_CLASS_NAME = "mt-1.5 text-xs font-medium text-red-700";

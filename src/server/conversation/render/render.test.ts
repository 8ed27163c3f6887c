import { describe, expect, it } from 'vitest';
import { LocalPromptRenderer } from '../local';
import { readPrompt } from '.';

/** Descriptive prompts and what the guide says for them, per language, in the page's register. */
const TABLE: Record<string, [prompt: string, said: string][]> = {
  en: [
    [
      'Ask the user whether they are opening a personal account or a business account.',
      'Are you opening a personal account or a business account?',
    ],
    ['Greet the user and ask if they are ready', 'Hello! Are you ready?'],
    ['Ask the user if he agrees to the terms', 'Do you agree to the terms?'],
    ['Ask the user whether the user has a passport', 'Do you have a passport?'],
    ['Ask if they have already sent the form', 'Have you already sent the form?'],
    ['Politely ask them if their address is correct', 'Is your address correct?'],
    ['Ask the user for their full name.', 'Could you tell me your full name?'],
    ['Ask the user to confirm their date of birth', 'Can you confirm your date of birth?'],
    ['Ask the user to look at the camera.', 'Please look at the camera.'],
    ['Tell the user that their code is on its way.', 'Your code is on its way.'],
    [
      'Explain that the next step takes a photo of their face.',
      'The next step takes a photo of your face.',
    ],
    ['Thank the user for their patience.', 'Thank you for your patience.'],
  ],
  fr: [
    [
      "Demandez à l'utilisateur s'il ouvre un compte personnel ou professionnel.",
      'Est-ce que vous ouvrez un compte personnel ou professionnel\u00a0?',
    ],
    [
      "Salue l'utilisateur et demande-lui s'il est prêt.",
      'Bonjour\u00a0! Est-ce que vous êtes prêt\u00a0?',
    ],
    [
      "Demandez à l'utilisateur si son adresse est correcte.",
      'Est-ce que votre adresse est correcte\u00a0?',
    ],
    [
      "Demandez à l'utilisateur de confirmer sa date de naissance.",
      'Pouvez-vous confirmer votre date de naissance\u00a0?',
    ],
    [
      "Demandez à l'utilisateur son adresse e-mail.",
      "Pouvez-vous m'indiquer votre adresse e-mail\u00a0?",
    ],
    ["Demandez à l'utilisateur de regarder la caméra.", 'Veuillez regarder la caméra.'],
    ["Dites à l'utilisateur que son code est en route.", 'Votre code est en route.'],
    ["Dis-lui qu'il n'a plus rien à faire.", "Vous n'avez plus rien à faire."],
    ["Remerciez l'utilisateur pour sa patience.", 'Merci pour votre patience.'],
  ],
  de: [
    [
      'Frage den Nutzer, ob er ein privates oder ein geschäftliches Konto eröffnet.',
      'Eröffnen Sie ein privates oder ein geschäftliches Konto?',
    ],
    ['Begrüße den Nutzer und frage ihn, ob er bereit ist.', 'Guten Tag! Sind Sie bereit?'],
    ['Fragen Sie den Nutzer, ob er zustimmt.', 'Stimmen Sie zu?'],
    ['Frage den Nutzer, ob er fortfahren möchte.', 'Möchten Sie fortfahren?'],
    ['Frage den Nutzer, ob seine Adresse korrekt ist.', 'Ist Ihre Adresse korrekt?'],
    [
      'Bitte den Nutzer, sein Geburtsdatum zu bestätigen.',
      'Können Sie Ihr Geburtsdatum bestätigen?',
    ],
    ['Bitte den Nutzer um seine E-Mail-Adresse.', 'Könnten Sie mir Ihre E-Mail-Adresse nennen?'],
    ['Bitte den Nutzer, in die Kamera zu schauen.', 'Bitte schauen Sie in die Kamera.'],
    ['Bitte den Nutzer, seine Adresse einzugeben.', 'Bitte geben Sie Ihre Adresse ein.'],
    ['Sage dem Nutzer, dass sein Code unterwegs ist.', 'Ihr Code ist unterwegs.'],
    ['Teile dem Nutzer mit, dass die Prüfung gleich anfängt.', 'Die Prüfung fängt gleich an.'],
    ['Bedanke dich beim Nutzer für seine Geduld.', 'Vielen Dank für Ihre Geduld.'],
  ],
  es: [
    [
      'Pregunta al usuario si abre una cuenta personal o de empresa.',
      '¿Abres una cuenta personal o de empresa?',
    ],
    ['Saluda al usuario y pregúntale si está listo.', '¡Hola! ¿Estás listo?'],
    ['Pregunta al usuario si su dirección es correcta.', '¿Tu dirección es correcta?'],
    ['Pregunta si el usuario quiere continuar.', '¿Quieres continuar?'],
    ['Pregunta al usuario si se llama Ana.', '¿Te llamas Ana?'],
    [
      'Pide al usuario que confirme su fecha de nacimiento.',
      '¿Puedes confirmar tu fecha de nacimiento?',
    ],
    ['Pide al usuario su correo electrónico.', '¿Me indicas tu correo electrónico?'],
    ['Pide al usuario que mire a la cámara.', 'Por favor, mira a la cámara.'],
    ['Dile al usuario que su código está en camino.', 'Tu código está en camino.'],
    ['Da las gracias al usuario por su paciencia.', 'Gracias por tu paciencia.'],
  ],
  it: [
    [
      "Chiedi all'utente se apre un conto personale o aziendale.",
      'Apri un conto personale o aziendale?',
    ],
    ["Saluta l'utente e chiedigli se è pronto.", 'Ciao! Sei pronto?'],
    ["Chiedi all'utente se il suo indirizzo è corretto.", 'Il tuo indirizzo è corretto?'],
    [
      "Chiedi all'utente di confermare la sua data di nascita.",
      'Puoi confermare la tua data di nascita?',
    ],
    ["Chiedi all'utente il suo indirizzo email.", 'Mi dici il tuo indirizzo email?'],
    [
      "Chiedi all'utente di mettersi davanti alla fotocamera.",
      'Per favore, mettiti davanti alla fotocamera.',
    ],
    ["Di' all'utente che il suo codice è in arrivo.", 'Il tuo codice è in arrivo.'],
    ["Ringrazia l'utente per la sua pazienza.", 'Grazie per la tua pazienza.'],
  ],
  pt: [
    [
      'Pergunte ao usuário se ele abre uma conta pessoal ou empresarial.',
      'Você abre uma conta pessoal ou empresarial?',
    ],
    ['Cumprimente o usuário e pergunte se ele está pronto.', 'Olá! Você está pronto?'],
    ['Pergunte ao usuário se o seu endereço está correto.', 'O seu endereço está correto?'],
    [
      'Peça ao usuário que confirme a sua data de nascimento.',
      'Você pode confirmar a sua data de nascimento?',
    ],
    ['Peça ao usuário o seu e-mail.', 'Pode me informar o seu e-mail?'],
    ['Peça ao usuário para aproximar-se da câmera.', 'Por favor, aproxime-se da câmera.'],
    ['Diga ao usuário que o código dele está a caminho.', 'O seu código está a caminho.'],
    ['Agradeça ao usuário pela paciência.', 'Obrigado pela paciência.'],
  ],
  ru: [
    [
      'Спроси пользователя, открывает ли он личный или бизнес-счёт.',
      'Вы открываете личный или бизнес-счёт?',
    ],
    ['Поприветствуйте пользователя и спросите, готов ли он.', 'Здравствуйте! Вы готовы?'],
    ['Спросите пользователя, хочет ли он продолжить.', 'Вы хотите продолжить?'],
    [
      'Попросите пользователя подтвердить свою дату рождения.',
      'Подтвердите, пожалуйста, вашу дату рождения.',
    ],
    [
      'Спросите у пользователя его адрес электронной почты.',
      'Назовите, пожалуйста, ваш адрес электронной почты.',
    ],
    ['Попросите пользователя посмотреть в камеру.', 'Прошу вас посмотреть в камеру.'],
    ['Скажите пользователю, что он должен показать паспорт.', 'Вы должны показать паспорт.'],
    ['Поблагодарите пользователя за терпение.', 'Спасибо за терпение.'],
  ],
  id: [
    [
      'Tanyakan kepada pengguna apakah dia membuka rekening pribadi atau rekening bisnis.',
      'Apakah Anda membuka rekening pribadi atau rekening bisnis?',
    ],
    ['Sapa pengguna dan tanyakan apakah dia sudah siap.', 'Halo! Apakah Anda sudah siap?'],
    ['Tanyakan apakah pengguna ingin melanjutkan.', 'Apakah Anda ingin melanjutkan?'],
    ['Tanyakan kepada pengguna apakah alamatnya benar.', 'Apakah alamat Anda benar?'],
    [
      'Minta pengguna mengonfirmasi tanggal lahirnya.',
      'Bisakah Anda mengonfirmasi tanggal lahir Anda?',
    ],
    ['Tanyakan kepada pengguna alamat emailnya.', 'Boleh saya tahu alamat email Anda?'],
    ['Minta pengguna untuk melihat ke kamera.', 'Silakan melihat ke kamera.'],
    ['Beri tahu pengguna bahwa kodenya sedang dikirim.', 'Kode Anda sedang dikirim.'],
    [
      'Ucapkan terima kasih kepada pengguna atas kesabarannya.',
      'Terima kasih atas kesabaran Anda.',
    ],
  ],
  no: [
    [
      'Spør brukeren om han åpner en personlig konto eller en bedriftskonto.',
      'Åpner du en personlig konto eller en bedriftskonto?',
    ],
    ['Hils på brukeren og spør om han er klar.', 'Hei! Er du klar?'],
    ['Spør brukeren om adressen hans er riktig.', 'Er adressen din riktig?'],
    ['Spør brukeren om han ikke er klar.', 'Er du ikke klar?'],
    ['Be brukeren bekrefte fødselsdatoen sin.', 'Kan du bekrefte fødselsdatoen din?'],
    ['Be brukeren om e-postadressen sin.', 'Kan du oppgi e-postadressen din?'],
    ['Be brukeren se inn i kameraet.', 'Kan du se inn i kameraet?'],
    ['Si til brukeren at koden hans er på vei.', 'Koden din er på vei.'],
    ['Takk brukeren for tålmodigheten.', 'Takk for tålmodigheten.'],
  ],
};

describe('the local renderer turns descriptive prompts into direct speech', () => {
  for (const [lang, rows] of Object.entries(TABLE)) {
    it.each(rows)(`${lang}: %s`, (prompt, said) => {
      expect(readPrompt(prompt)).toMatchObject({ kind: 'rendered', lang, text: said });
    });
  }

  it('covers the nine languages', () => {
    expect(Object.keys(TABLE).sort()).toEqual(
      ['de', 'en', 'es', 'fr', 'id', 'it', 'no', 'pt', 'ru'].sort(),
    );
  });
});

describe('what it cannot say', () => {
  const unrenderable = [
    "Verify the user's identity carefully",
    'Ask the user what they think about our service',
    'Explain the next step to the user',
    'Find out whether the user is over 18',
    'Pregunta al usuario cuándo nació.',
    'Frage den Nutzer nach seinem Namen.',
    'Demandez à l’utilisateur comment il va.',
  ];
  it.each(unrenderable)('refuses "%s"', (prompt) => {
    expect(readPrompt(prompt)).toEqual({ kind: 'unrenderable' });
    expect(new LocalPromptRenderer().problemWith(prompt)).toMatch(/without an LLM/);
  });

  const speech = [
    'Hello! Are you ready?',
    'Please type your email',
    'Thank you for waiting.',
    'Welcome to Acme! Shall we begin?',
    'Bitte geben Sie Ihre E-Mail-Adresse ein.',
    '¡Hola! ¿Estás listo?',
  ];
  it.each(speech)('says "%s" as written: it is no instruction', async (prompt) => {
    expect(readPrompt(prompt)).toEqual({ kind: 'speech', text: prompt });
    expect(await new LocalPromptRenderer().render({ prompt, lang: 'en' })).toBe(prompt);
  });
});

describe('LocalPromptRenderer', () => {
  const renderer = new LocalPromptRenderer();
  it('says fixed forms (greetings, thanks) in the session language', async () => {
    expect(await renderer.render({ prompt: 'Greet the user warmly', lang: 'de' })).toBe(
      'Guten Tag!',
    );
    expect(await renderer.render({ prompt: 'Greet the user and thank them', lang: 'es' })).toBe(
      '¡Hola! ¡Gracias!',
    );
  });

  it('says content in the language it is written in', async () => {
    expect(
      await renderer.render({ prompt: 'Ask the user whether they are ready', lang: 'fr' }),
    ).toBe('Are you ready?');
  });

  it('never says an instruction it cannot render', async () => {
    const said = await renderer.render({ prompt: 'Verify the user carefully', lang: 'it' });
    expect(said).toBe('Rispondi qui sotto, per favore.');
  });

  it('keeps Say: prompts word for word', async () => {
    expect(await renderer.render({ prompt: 'Say: Ask the user', lang: 'en' })).toBe('Ask the user');
    expect(renderer.problemWith('Say: Verify the user')).toBeNull();
  });
});

// The character lists the charset sniffer (charset-sniff.ts) scores each candidate's decoding by:
// the commonest characters of each language's script. They are derived, by
// eval/manuals/charset-lists.ts, from translated text no evaluation crawl holds (Debian's
// manual-page translations, the GNOME help and VLC's catalogues, at pinned versions): that script
// prints these lines, and checks that they are these.

/** The 160 commonest kanji of Japanese text (kana count whole, apart). */
export const JA_COMMON = '定合場行数使指用名文字示表出力前以設実変値書作動時対能入一最関要全可下的上同式在効後成通報有間込現参照引送方必明終更目意列番記号理存中情置常分続語説読例無換了大単正準含生制空切部取付連除開内信形標先持接初加起限別者性新返自他機特利外義項法次位解処化見際検完注各末保呼受言再長複始端度境告認降述本環得追適子点応縮進詳削視索';
/** The 160 commonest Han characters of simplified Chinese text. */
export const SC_COMMON = '的用个文一是在件中数有以字可如这不为行定果时使选出名式项和令符或设命置它表参于本将了作指示到程所对下会标来器能接输要被值上页列目后面前进版序当系入则户统动计包手册制者号同分录配新息信据并存显些其变模回通量间由内应成开过地最此提你划多关之码该而何发类只格述例务解见位换口也就单样方从与返没大机组除建法相任加查义串描那给调更';
/** The 160 commonest Han characters of traditional Chinese text. */
export const TC_COMMON = '的個用一是在中檔定有案式以可使這如字不數為行設果時令選名出項文和者命指或它列表示資元於了將程引位作所到來下會對訊被上值面頁器標能輸要本版入目當後前新則統手動計冊包號預系同執碼件分置組錄並變配由制些回序顯模過料其別你成劃開間最應進地相提多此而何該之關啟除述例格見存接只結返符就也參樣與單換沒譯建方從串取錯任那描法始給義寫大';
/** The 160 commonest Hangul syllables of Korean text. */
export const KO_COMMON = '다니이을를하로에기는스지정합수서시일용의면있가자트사터인오어습디할파그프리크은한드보나상고설입으도동선화치전제비장대성력단키모재해요우작조러게호라연더택아바간음록위여활누목추결려레른램문세창소본타경만식거색생적때림미부마않또메개표확과워공데원컴계분코네션내퓨들방버열르필영저업주명무름없구출야값행형유임현눌것막템배와중실';
/** The 16 commonest lowercase Russian letters. */
export const RU_COMMON = 'оеаитнсрвлкпмдяу';
/** The 22 commonest lowercase Greek letters (with tonos). */
export const EL_COMMON = 'αοτεινσρπημςκυίλήγάδόέ';
/** The 22 commonest Arabic letters. */
export const AR_COMMON = 'اليمترودنةفعسبقحكخهجصط';
/** The 20 commonest Hebrew letters. */
export const HE_COMMON = 'ויהתלמרשבאנדקפעחםכגס';
/** The 33 commonest Thai characters (consonants, vowels, tone marks). */
export const TH_COMMON = 'า่รนอเักง้มวลดสยีตบทิปแคหขะืุชพใจ';

// Pages in legacy charsets for the charset tests (Node's and Chromium's): a few sentences of
// each language about configuring a server, written for these tests, and the charsets each is
// encoded in with the charset sniffCharset must find.
import { cp1258Form } from '../../eval/manuals/cp1258.js';

export const TEXTS: Record<string, string> = {
  ja: 'このマニュアルでは、サーバーの設定方法と、パッケージを管理するための基本的な手順を説明します。設定ファイルを変更した後は、必ずサービスを再起動してください。詳しい情報は次の章を参照してください。',
  zhHans: '本手册介绍如何配置服务器，以及管理软件包的基本步骤。修改配置文件以后，请重新启动相应的服务。更多的信息请参考下一章，这里只说明最常用的命令和选项。',
  zhHant: '本手冊介紹如何設定伺服器，以及管理套件的基本步驟。修改設定檔以後，請重新啟動相應的服務。更多的資訊請參考下一章，這裡只說明最常用的指令和選項。',
  ko: '이 설명서는 서버를 설정하는 방법과 패키지를 관리하는 기본적인 절차를 설명합니다. 설정 파일을 바꾼 다음에는 반드시 서비스를 다시 시작해야 합니다. 자세한 내용은 다음 장을 참고하십시오.',
  ru: 'В этом руководстве описано, как настроить сервер и как управлять пакетами. После изменения файла настройки нужно перезапустить службу. Подробности приведены в следующей главе, где описаны основные команды и их параметры.',
  el: 'Αυτό το εγχειρίδιο περιγράφει πώς να ρυθμίσετε τον διακομιστή και πώς να διαχειρίζεστε τα πακέτα. Μετά την αλλαγή του αρχείου ρυθμίσεων πρέπει να επανεκκινήσετε την υπηρεσία. Περισσότερα θα βρείτε στο επόμενο κεφάλαιο.',
  ar: 'يشرح هذا الدليل كيفية إعداد الخادم وكيفية إدارة الحزم. بعد تعديل ملف الإعدادات يجب إعادة تشغيل الخدمة. توجد التفاصيل في الفصل التالي الذي يشرح الأوامر الأساسية وخياراتها.',
  he: 'המדריך הזה מסביר איך להגדיר את השרת ואיך לנהל את החבילות. אחרי שינוי קובץ ההגדרות יש להפעיל מחדש את השירות. פרטים נוספים נמצאים בפרק הבא שמתאר את הפקודות העיקריות.',
  fr: 'Ce manuel explique comment configurer le serveur et gérer les paquets. Après avoir modifié le fichier de configuration, il faut redémarrer le service. Les détails se trouvent à la fin du chapitre suivant, où sont décrites les commandes.',
  it: 'Questo manuale spiega come configurare il server e come gestire i pacchetti. Dopo aver modificato il file di configurazione è necessario riavviare il servizio: la procedura è descritta nel capitolo successivo.',
  de: 'Dieses Handbuch erklärt, wie man den Server einrichtet und die Pakete verwaltet. Nach einer Änderung der Konfigurationsdatei muss der Dienst neu gestartet werden. Einzelheiten stehen im nächsten Kapitel über die wichtigsten Befehle.',
};

// Central European (windows-1250, ISO-8859-2: they differ in š ž ś ź ą, which these hold), Thai, and
// Western languages whose letters are Central European ones in windows-1250 (ñ ń, ¿ ż, è č, ò ň, ø ř, æ ć).
TEXTS.cs = 'Tato příručka popisuje, jak nastavit server a jak spravovat balíčky. Po změně konfiguračního souboru je nutné službu znovu spustit. Podrobnosti najdete v následující kapitole, kde jsou popsány všechny základní příkazy a jejich přepínače.';
TEXTS.pl = 'Ten podręcznik opisuje, jak skonfigurować serwer i jak zarządzać pakietami. Po zmianie pliku konfiguracyjnego trzeba ponownie uruchomić usługę. Komunikaty o błędach i wiadomości są zapisywane w dzienniku, a szczegóły można znaleźć w następnym rozdziale.';
TEXTS.th = 'คู่มือนี้อธิบายวิธีตั้งค่าเซิร์ฟเวอร์และวิธีจัดการแพ็กเกจ หลังจากแก้ไขแฟ้มการตั้งค่าแล้ว ต้องเริ่มบริการใหม่อีกครั้ง รายละเอียดเพิ่มเติมอยู่ในบทถัดไป ซึ่งอธิบายคำสั่งพื้นฐานและตัวเลือกของคำสั่งเหล่านั้น';
TEXTS.es = '¿Cómo se configura el servidor? Este manual explica también cómo gestionar los paquetes. Después de cambiar el fichero de configuración hay que reiniciar el servicio; el año pasado se añadió una sección con los detalles.';
TEXTS.ca = 'Aquest manual explica com configurar el servidor i com gestionar els paquets. Després de modificar el fitxer de configuració cal tornar a iniciar el servei: podeu conèixer els detalls al capítol següent, on també es descriu la col·lecció d\'ordres.';
TEXTS.nb = 'Denne håndboken forklarer hvordan du setter opp tjeneren og styrer pakkene. Etter at du har endret oppsettsfilen, må tjenesten startes på nytt. Du finner flere detaljer i neste kapittel, som også beskriver miljøet og de viktigste kommandoene.';

// Vietnamese as windows-1258 writes it: a letter it holds as it is, any other as one it holds and a combining tone mark (ệ as ê and U+0323).
TEXTS.vi = cp1258Form('Tài liệu này hướng dẫn cách cấu hình máy chủ và cách quản lý các gói phần mềm. Sau khi sửa tệp cấu hình, bạn cần khởi động lại dịch vụ. Thông tin chi tiết nằm trong chương tiếp theo, nơi mô tả các lệnh cơ bản và tùy chọn của chúng.');

export const TURKISH = 'Bu kılavuz sunucunun nasıl yapılandırılacağını ve paketlerin nasıl yönetileceğini açıklar. Yapılandırma dosyasını değiştirdikten sonra ilgili hizmeti yeniden başlatmanız gerekir. Daha fazla bilgi için sistem yöneticinize başvurun ve günlük dosyalarını düzenli olarak inceleyin.';
TEXTS.tr = TURKISH;

export const page = (text: string) => `<!DOCTYPE html>\n<html><head><title>Manual</title></head><body><h1>Manual</h1>${`<p>${text}</p>\n`.repeat(3)}<p>Example: <code>systemctl restart apache2</code></p></body></html>`;

export const CASES: Array<[lang: string, charset: string, expected: string]> = [
  ['ja', 'Shift_JIS', 'shift_jis'], ['ja', 'EUC-JP', 'euc-jp'],
  ['zhHans', 'GBK', 'gb18030'], ['zhHans', 'GB18030', 'gb18030'], ['zhHant', 'Big5', 'big5'],
  ['ko', 'EUC-KR', 'euc-kr'],
  ['ru', 'windows-1251', 'windows-1251'], ['ru', 'KOI8-R', 'koi8-r'],
  ['el', 'windows-1253', 'windows-1253'], ['ar', 'windows-1256', 'windows-1256'], ['he', 'windows-1255', 'windows-1255'],
  ['fr', 'windows-1252', 'windows-1252'], ['it', 'windows-1252', 'windows-1252'], ['de', 'ISO-8859-1', 'windows-1252'],
  ['tr', 'windows-1254', 'windows-1254'], ['tr', 'ISO-8859-9', 'windows-1254'],
  ['cs', 'windows-1250', 'windows-1250'], ['cs', 'ISO-8859-2', 'iso-8859-2'],
  ['pl', 'windows-1250', 'windows-1250'], ['pl', 'ISO-8859-2', 'iso-8859-2'],
  ['es', 'windows-1252', 'windows-1252'], ['ca', 'ISO-8859-1', 'windows-1252'], ['nb', 'windows-1252', 'windows-1252'],
  ['th', 'windows-874', 'windows-874'], ['th', 'TIS-620', 'windows-874'],
  ['vi', 'windows-1258', 'windows-1258'],
];

